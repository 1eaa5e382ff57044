"""A full schemathesis run against the API as it is deployed: every phase (examples, coverage, fuzzing and
stateful sequences that follow the schema's links) and every check, on gunicorn with production settings,
PostgreSQL, Redis and a worker (the load test's stack, loadtest/stack.py).

PostgreSQL refuses what SQLite lets by (a NUL in text, integers past 64 bits), so this is the run that
counts: marked ``services``, CI runs it in its PostgreSQL pass. It takes about a minute on two cores (50
examples an operation and phase), its phases side by side.

The config (below) says which statuses a request that matches the schema may get besides 2xx: those that
depend on the state of things (409, 410, 412, 422) everywhere, and 400 where the server checks what a JSON
schema cannot say (the rules engine, that the players named exist and differ, a password).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.conftest import need, using_postgres

pytestmark = pytest.mark.services

CHECKED_BY_THE_SERVER = "|".join([
    r"auth/token/",  # the password
    r"games/", r"matches/",  # the players exist and differ; options by the rules engine
    r"games/\{id\}/hands/", r"games/\{id\}/hands/\{number\}/",  # hand records, by the rules engine
    r"leagues/", r"leagues/\{id\}/",  # house rules by the rules engine; a slug in use
    r"leagues/\{id\}/members/", r"leagues/\{id\}/members/\{username\}/",  # the user named exists; a higher
    r"games/\{id\}/scorekeepers/",  # role needs the member's acceptance
    r"auth/signup/", r"me/",  # a username in use; an e-mail address
    r"leagues/\{id\}/invitations/", r"invitations/\{token\}/(accept|decline)/",  # who may be invited
    r"leagues/\{id\}/players/.*", r"leagues/\{id\}/claims/\{claim_id\}/",  # names, claims and links
    r"leagues/\{id\}/nights/", r"nights/\{id\}/.*",  # house rules; the players named, checked in, seated
    r"leagues/import/", r"leagues/imports/",  # a backup: its JSON Schema, its rules, every game re-scored
])
# A bigger run than CI's: SCHEMATHESIS_MAX_EXAMPLES=500 SCHEMATHESIS_SEED=$RANDOM pytest this file.
LEAGUES = "^/api/v1/leagues/"
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "7"))
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "50"))


def config(ids: dict | None) -> str:
    """A schemathesis.toml: expected statuses, and (given ``ids``) real objects for the path parameters, so
    that the examples, coverage and fuzzing phases reach the code behind them, not only 404s. The stateful
    phase runs without them: it follows the schema's links from what it creates, and a fixed id would
    stand in for the one a link carries."""
    # 304: a conditional GET whose If-None-Match matches the current ETag (``*`` matches any), as documented.
    usual = '"2xx", 304, 401, 403, 404, 409, 410, 412, 422, 429'
    lines = ["[checks.positive_data_acceptance]", f"expected-statuses = [{usual}]"]

    def operations(path_regex: str, *settings: str) -> None:
        # TOML literal strings ('...'): the regular expressions' backslashes stay as written.
        lines.extend(["", "[[operations]]", f"include-path-regex = '{path_regex}'", *settings])

    def parameters(**values) -> str:
        return "parameters = { " + ", ".join(f'"path.{name}" = {value!r}' for name, value in values.items()) + " }"

    operations(f"^/api/v1/({CHECKED_BY_THE_SERVER})$", "include-method-regex = '^(POST|PUT|PATCH)$'",
               f"checks.positive_data_acceptance.expected-statuses = [400, {usual}]")
    # A cursor is opaque: only one the API gave is valid, which a schema cannot say.
    operations(r"^/api/v1/(games|hands)/$", "include-method-regex = '^GET$'",
               f"checks.positive_data_acceptance.expected-statuses = [400, {usual}]")
    if ids is None:
        return "\n".join(lines) + "\n"
    operations(r"^/api/v1/games/\{id\}/(|hands/.*)$", parameters(id=ids["game"], number=1))
    operations(r"^/api/v1/games/\{id\}/abandon/$", parameters(id=ids["game_to_abandon"]))
    operations(r"^/api/v1/games/\{id\}/scorekeepers/", parameters(id=ids["casual_game"], username="helper"))
    operations(r"^/api/v1/leagues/\{id\}/(?!members/\{username\}/)",
               parameters(id=ids["league"], invitation_id=ids["invitation_id"], player_id=ids["player_id"],
                          claim_id=ids["claim_id"], season_id=ids["season_id"]))
    # The member is read and changed, but removed only as someone who is not one (a 404): later steps that
    # follow a link to the member must still find them.
    operations(r"^/api/v1/leagues/\{id\}/members/\{username\}/$", "include-method-regex = '^(GET|PUT|PATCH)$'",
               parameters(id=ids["league"], username="member"))
    operations(r"^/api/v1/leagues/\{id\}/members/\{username\}/$", "include-method-regex = '^DELETE$'",
               parameters(id=ids["league"], username="helper"))
    operations(r"^/api/v1/invitations/\{token\}/", parameters(token=ids["token"]))
    operations(r"^/api/v1/players/\{id\}/", parameters(id=ids["player"]))
    operations(r"^/api/v1/matches/\{id\}/", parameters(id=ids["match"]))
    operations(r"^/api/v1/nights/\{id\}/", parameters(id=ids["night"]))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def stack():
    need(using_postgres(), "PostgreSQL (DATABASE_URL=postgres://...)")
    need(bool(settings.REDIS_URL), "Redis (REDIS_URL=redis://...)")
    from loadtest.session import Session

    # A Redis of its own (Celery's queue among it): the stack runs beside the load tests' stacks.
    session = Session(database_url=os.environ["DATABASE_URL"], redis_url=settings.REDIS_URL, private_redis=True)
    try:
        with session.stack("schemathesis", players=8) as running:
            yield running
    finally:
        session.close()


def things_to_test_on(stack) -> dict:
    """A league with a member, a claim, an invitation and a season, a game with two hands, one to abandon, a
    casual game, a match, a club night playing its first round."""
    api, players = stack.api, stack.setup["players"]
    league = stack.league_id
    club = stack.dbtool("club", str(league))
    seats = dict(zip("NESW", players[:4], strict=True))

    def start(path: str, **body) -> int:
        reply = api.post(path, {"game_type": "spades", "seats": seats, **body})
        assert reply.status == 201, reply.body
        return reply.body["id"]

    game = start("/api/v1/games/", league=league, options={"target": 500})
    for bids, tricks in (((3, 3, 3, 3), (4, 3, 3, 3)), ((4, 2, 4, 2), (4, 2, 5, 2))):
        hand = {"bids": dict(zip("NESW", bids, strict=True)), "tricks": dict(zip("NESW", tricks, strict=True))}
        assert api.post(f"/api/v1/games/{game}/hands/", hand).status == 201
    match = api.post("/api/v1/matches/", {"game_type": "trumps", "league": league, "seats": seats})
    assert match.status == 201, match.body
    season = api.post(f"/api/v1/leagues/{league}/seasons/", {"name": "Schemathesis 2001", "starts_on": "2001-01-01",
                                                            "ends_on": "2001-12-31"})
    assert season.status == 201, season.body
    night = api.post(f"/api/v1/leagues/{league}/nights/", {"game_type": "spades", "hands": 2})
    assert night.status == 201, night.body
    for player in players[:5]:
        assert api.post(f"/api/v1/nights/{night.body['id']}/check-in/", {"player": player}).status == 200
    assert api.post(f"/api/v1/nights/{night.body['id']}/rounds/", {}).status == 200
    return {"game": game, "game_to_abandon": start("/api/v1/games/", league=league), "night": night.body["id"],
            "casual_game": start("/api/v1/games/"), "league": league, "player": players[0],
            "match": match.body["id"], "season_id": season.body["id"], **club}


def schemathesis(stack, folder, phases: str, ids: dict | None, *only: str) -> subprocess.Popen:
    """Start a schemathesis run of ``phases`` (``only``: options choosing some of the operations). It runs in a
    folder of its own: schemathesis keeps what it learns between runs, and a run must not inherit."""
    folder.mkdir()
    (folder / "schemathesis.toml").write_text(config(ids))
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(folder / "schemathesis.toml"), "run",
        f"{stack.server.url}/api/v1/schema/?format=json", "--header", f"Authorization: Token {stack.setup['token']}",
        "--checks", "all", "--phases", phases, "--max-examples", str(MAX_EXAMPLES),
        # One worker: schemathesis's threads meet a CPython 3.11 bug in ast.parse (a SystemError
        # "AST constructor recursion depth mismatch") when they describe strategies at the same moment.
        "--seed", str(SEED), "--workers", "1", "--no-color", *only,
    ]
    with (folder / "output.txt").open("w") as output:
        return subprocess.Popen(command, cwd=folder, stdout=output, stderr=subprocess.STDOUT, text=True)


def test_a_full_schemathesis_run_finds_nothing(stack, tmp_path):
    # The phases run side by side, as three clients of the one server: each waits on the server's answers
    # most of the time, and together they keep both cores busy. Each keeps its seed; that they change the same
    # objects at once is what a live API meets anyway.
    ids = things_to_test_on(stack)
    runs = {"coverage": schemathesis(stack, tmp_path / "coverage", "examples,coverage", ids),
            # Fuzzing takes longest: the leagues' operations (half of them) in a run of their own.
            "fuzzing leagues": schemathesis(stack, tmp_path / "fuzzing leagues", "fuzzing", ids,
                                            "--include-path-regex", LEAGUES),
            "fuzzing the rest": schemathesis(stack, tmp_path / "fuzzing the rest", "fuzzing", ids,
                                             "--exclude-path-regex", LEAGUES),
            "sequences": schemathesis(stack, tmp_path / "sequences", "stateful", None)}
    failed = []
    for name, run in runs.items():
        try:
            run.wait(timeout=900)
        except subprocess.TimeoutExpired:
            run.kill()
            run.wait()
        output = (tmp_path / name / "output.txt").read_text()
        print(f"== {name}\n{output[-3000:]}")  # the summaries, shown with -s
        if run.returncode != 0:
            failed.append(f"== {name} (exit {run.returncode})\n{output[-20000:]}")
    assert not failed, "\n".join(failed)

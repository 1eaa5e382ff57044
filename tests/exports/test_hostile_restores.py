"""A restore trusts nothing in its document: each hostile backup below is refused with a report of every
problem, and nothing is created (no league, player, season, match, game or hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.backup.schema import schema_text
from games.models import Game, Hand, League, Match, Player, Season
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export

pytestmark = pytest.mark.django_db


def set_path(document: dict, path: str, value) -> None:
    """``set_path(doc, "games.0.hands.1.number", 5)``."""
    *steps, last = [int(step) if step.isdigit() else step for step in path.split(".")]
    node = document
    for step in steps:
        node = node[step]
    node[last] = value


def seat_twice(document):
    document["games"][0]["seats"]["S"] = document["games"][0]["seats"]["N"]


def same_key(document):
    document["games"][1]["key"] = document["games"][0]["key"]


def finished_before_started(document):
    game = document["games"][0]
    game["started_at"], game["finished_at"] = "2026-03-05T21:00:00+00:00", "2026-03-05T19:30:00+00:00"


def same_player_key(document):
    document["players"][1]["key"] = document["players"][0]["key"]


def abandon_the_finished(document):
    document["games"][0]["abandoned"] = True


def finish_the_live(document):
    document["games"][1]["finished_at"] = "2026-03-05T21:00:00+00:00"


def unknown_field(document):
    document["league"]["is_publik"] = False


def number_without_match(document):
    document["games"][0]["match_game_number"] = 2


# (what is wrong, how the document is made so, a problem the report must list)
HOSTILE = [
    ("a string where true or false belongs", lambda d: set_path(d, "league.is_public", "false"),
     'league: "is_public" must be true or false, not "false"'),
    ("a field the format does not have", unknown_field,
     'league: "is_publik" is not a field of a backup (version 1)'),
    ("one player in two seats", seat_twice, 'game G1: "P1" sits in N and S: a player has one seat at a table'),
    ("a seat naming nobody listed", lambda d: set_path(d, "games.0.seats.N", "P99"),
     'game G1: seat N names "P99", who is not among the players'),
    ("two games with one key", same_key, 'game G1: the key "G1" is used by another game; each game needs its own'),
    ("two players with one key", same_player_key, 'player P1: the key "P1" is used twice in "players"'),
    ("hands not numbered 1 to n", lambda d: set_path(d, "games.0.hands.1.number", 5),
     "game G1: its hands are numbered 1, 5; hands are numbered 1 to 2 in the order played"),
    ("a hand numbered 0", lambda d: set_path(d, "games.0.hands.0.number", 0),
     'game G1: hand 1: "number" is 0, below 1'),
    ("finished before it started", finished_before_started,
     "game G1: it finished (2026-03-05T19:30:00+00:00) before it started (2026-03-05T21:00:00+00:00)"),
    ("an unknown rules version", lambda d: set_path(d, "games.0.rules_version", 999),
     'game G1: "rules_version" is 999: this site knows rules versions 1 to 3'),
    ("a rules version that is text", lambda d: set_path(d, "games.0.rules_version", "2"),
     'game G1: "rules_version" must be a whole number, not "2"'),
    ("a game this site does not score", lambda d: set_path(d, "games.0.game_type", "chess"),
     'game G1: "game_type" is "chess", not a game this site scores'),
    ("a player named only spaces", lambda d: set_path(d, "players.0.name", "   "),
     'player P1: "name" is "   ": it must have 1 to 80 characters, not only spaces'),
    ("a finished game marked abandoned", abandon_the_finished,
     "game G1: it is marked abandoned, yet its hands finish it"),
    ("a game in progress with a finish", finish_the_live,
     "game G2: it has a finished_at, yet its hands do not finish it"),
    ("a match game number without a match", number_without_match,
     "game G1: match_game_number is 2, but the game names no match"),
    ("a hand the rules refuse", lambda d: set_path(d, "games.0.hands.1.record.tricks.N", 5),
     "game G1: hand 2: tricks add up to 14; they must add up to 13"),
    ("a time that is not one", lambda d: set_path(d, "games.1.started_at", "last tuesday"),
     'game G2: "last tuesday" is not a date and time (ISO 8601)'),
    ("a season day that is not one", lambda d: d["seasons"].append({"name": "Autumn", "starts_on": "1 September"}),
     'season "Autumn": "starts_on" is "1 September": a date is written YYYY-MM-DD, e.g. 2026-09-01'),
]


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (League, Player, Season, Match, Game, Hand))


@pytest.mark.parametrize(("what", "make", "problem"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_hostile_backup_is_refused_and_creates_nothing(league, played, owner, what, make, problem):
    document = league_export(league=league)
    document["league"]["slug"] = "copy"
    make(document)
    before = counts()
    with pytest.raises(ImportRefused) as refused:
        league_restore(document=document, by=owner)
    assert any(found.startswith(problem) for found in refused.value.problems), refused.value.problems
    assert counts() == before


def test_every_problem_is_reported_at_once(league, played, owner):
    document = league_export(league=league)
    together = [HOSTILE[n] for n in (0, 1, 2, 4, 6, 8, 16)]
    for _, make, _ in together:
        make(document)
    with pytest.raises(ImportRefused) as refused:
        league_restore(document=document, by=owner)
    assert len(refused.value.problems) == len(together)
    for _, _, problem in together:
        assert any(found.startswith(problem) for found in refused.value.problems), (problem, refused.value.problems)
    assert str(refused.value).startswith(f"{len(refused.value.problems)} problems, nothing was imported: ")


def test_the_api_refuses_a_private_league_made_public_by_a_string(as_owner, league, played):
    document = league_export(league=league)
    document["league"].update(is_public="false", slug="copy")
    before = counts()
    response = as_owner.post("/api/v1/leagues/import/", {"document": document}, format="json")
    assert response.status_code == 400
    assert response.json()["document"] == ['league: "is_public" must be true or false, not "false"']
    assert counts() == before


def test_a_backup_as_written_restores(league, played, owner):
    document = league_export(league=league)
    document["league"]["slug"] = "copy"
    report = league_restore(document=document, by=owner)
    assert report.league.slug == "copy" and sum(report.games.values()) == 2


def test_the_committed_schema_is_the_one_made_from_the_rules_registry():
    committed = (Path(__file__).resolve().parents[2] / "docs" / "league-backup.schema.json").read_text()
    assert committed == schema_text(), "run: python manage.py backup_schema -o docs/league-backup.schema.json"
    game_types = json.loads(committed)["$defs"]["game_type"]["enum"]
    assert game_types == ["spades", "smudge", "trumps", "thieving_stink"]

"""Benchmark the standings: rebuild, incremental update and read of a large synthetic league.

    .venv/bin/python bench/standings.py [--players 220] [--games 20000] [--keep]

Builds a league of ``--players`` players and ``--games`` finished games (every game type, some
cutthroat Spades, Trumps matches of three games) with their hands, inserted in bulk. The hands are
real: a pool of games is played through the rules engine, then dealt out to random tables.
Then it times:

- the full rebuild of the league (``league_standings_recompute``);
- the update after one more game finishes (the ``league_standings_update`` task, in-process), which
  folds the new game into the stored rows; the same update run again (nothing new); and checks that
  the rows it left are exactly those of a full rebuild;
- the standings read (``league_standings``) and a player's ratings (``player_ratings``).

Without ``DATABASE_URL`` it works in a throwaway SQLite file; with it, in that database (the
league and its players are deleted afterwards unless ``--keep``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCRATCH = None
if not os.environ.get("DATABASE_URL"):
    SCRATCH = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{SCRATCH}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.models import (  # noqa: E402
    Game,
    Hand,
    League,
    Match,
    Player,
    PlayerFigures,
    PlayerRating,
    RatingChange,
    Standing,
)
from games.rules import RULES_VERSION, RULESETS, InvalidHand, get_ruleset, ruleset_class  # noqa: E402
from games.services.hands import plain  # noqa: E402
from games.standings.selectors import league_standings, player_ratings  # noqa: E402
from games.standings.services import league_standings_recompute  # noqa: E402

SEATS = ("N", "E", "S", "W")
START = datetime(2024, 1, 1, tzinfo=UTC)


# --- a pool of games played through the engine ------------------------------------------------------


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def spades_record(rng):
    bids = {seat: rng.choice([0, 1, 2, 3, 3, 4, 4, 5]) for seat in SEATS}
    return {"bids": bids, "tricks": dict(zip(SEATS, split(rng, 13, 4), strict=True))}


def smudge_record(rng):
    side = rng.choice(["NS", "EW"])
    points = {name: rng.choice(["NS", "EW", side]) for name in ("high", "low", "jack", "game")}
    return {"bidder": rng.choice(SEATS), "bid": rng.choice([2, 2, 3, 3, 4, 5]), **points, "all_tricks": False}


def trumps_record(rng):
    doubled = rng.random() < 0.15
    return {"declarer": rng.choice(SEATS), "bid": rng.randint(5, 10),
            "trump": rng.choice(["clubs", "diamonds", "hearts", "spades", "notrump"]),
            "doubled": doubled, "redoubled": doubled and rng.random() < 0.2, "tricks": rng.randint(4, 13)}


def stink_record(rng):
    size = rng.randint(4, 10)
    won = rng.randint(16 - size, 16)
    ns = rng.randint(0, won)
    return {"face_cards": {"NS": ns, "EW": won - ns}, "trump_stack": {"holder": rng.choice(SEATS), "size": size}}


TEMPLATES = {
    "spades": (spades_record, {"target": 300}),
    "spades_cutthroat": (spades_record, {"target": 200, "partnerships": False, "blind_nil_allowed": False}),
    "smudge": (smudge_record, {}),
    "trumps": (trumps_record, {}),
    "thieving_stink": (stink_record, {}),
}


def play_template(rng: random.Random, kind: str):
    """One finished game of ``kind``: (options, totals, winner, [(record, dealer, delta, totals, extras, details)])."""
    make, options = TEMPLATES[kind]
    ruleset = get_ruleset("spades" if kind == "spades_cutthroat" else kind, options)
    state = ruleset.initial_state()
    while not state.finished and state.hands_played < 200:
        try:
            state = ruleset.play(state, make(rng))
        except InvalidHand:
            continue
    if not state.finished:
        return None
    hands = [(plain(h.record), h.dealer, plain(h.delta), plain(h.totals), plain(h.extras), plain(h.details))
             for h in state.hands]
    return dict(ruleset.options), plain(state.totals), state.winner, hands


def template_pool(rng: random.Random, per_kind: int = 40):
    pool = {}
    for kind in TEMPLATES:
        games = []
        while len(games) < per_kind:
            game = play_template(rng, kind)
            if game is not None:
                games.append(game)
        pool[kind] = games
    return pool


# --- the league ----------------------------------------------------------------------------------------


def build_league(*, players: int, games: int, seed: int = 7) -> tuple[League, list[Player]]:
    rng = random.Random(seed)
    pool = template_pool(rng)
    league = League.objects.create(name=f"Bench league {int(time.time())}", slug=f"bench-{time.time_ns()}")
    people = Player.objects.bulk_create(Player(name=f"Bench player {n}") for n in range(players))
    kinds = ["spades"] * 30 + ["spades_cutthroat"] * 10 + ["smudge"] * 25 + ["thieving_stink"] * 20 + ["trumps"] * 15
    game_rows, hand_rows = [], []
    match_specs = []  # (match index, seating, first dealer, [template per game])
    at = START
    made = 0
    while made < games:
        kind = rng.choice(kinds)
        in_matches = ruleset_class(kind).match_games if kind in RULESETS else 0
        if in_matches and games - made >= in_matches and rng.random() < 0.6:
            table = rng.sample(people, 4)
            seating = {seat: player.pk for seat, player in zip(SEATS, table, strict=True)}
            rules = get_ruleset(kind, {})
            seatings = rules.match_seatings(seating)
            games_of_match = [rng.choice(pool[kind]) for _ in range(in_matches)]
            result = rules.match_result(seatings, [template[1] for template in games_of_match])
            match = Match(game_type=kind, league=league, seating=seating, options=games_of_match[0][0], status="finished",
                          player_totals={str(p): t for p, t in result.player_totals.items()},
                          winners=list(result.winners), started_at=at)
            match_specs.append(match)
            for number, (template, game_seating) in enumerate(zip(games_of_match, seatings, strict=True), 1):
                at += timedelta(minutes=rng.randint(20, 60))
                game_rows.append((kind, game_seating, template, at, len(match_specs) - 1, number))
                made += 1
            match.finished_at = at + timedelta(seconds=1)
            continue
        at += timedelta(minutes=rng.randint(20, 60))
        table = rng.sample(people, 4)
        game_rows.append((kind, {seat: p.pk for seat, p in zip(SEATS, table, strict=True)},
                          rng.choice(pool[kind]), at, None, None))
        made += 1
    matches = Match.objects.bulk_create(match_specs, batch_size=2000)
    objects = []
    for kind, seating, (options, totals, winner, _), finished_at, match_index, number in game_rows:
        objects.append(Game(
            game_type="spades" if kind == "spades_cutthroat" else kind, league=league,
            north_id=seating["N"], east_id=seating["E"], south_id=seating["S"], west_id=seating["W"],
            options=options, rules_version=RULES_VERSION, status=Game.Status.FINISHED, winner=winner,
            totals=totals, hand_count=0, match=matches[match_index] if match_index is not None else None,
            match_game_number=number, started_at=finished_at - timedelta(minutes=15), finished_at=finished_at,
        ))
    created = Game.objects.bulk_create(objects, batch_size=2000)
    for game, (_, _, (_, _, _, hands), finished_at, _, _) in zip(created, game_rows, strict=True):
        game.hand_count = len(hands)
        for number, (record, dealer, delta, totals, extras, details) in enumerate(hands, 1):
            hand_rows.append(Hand(game=game, number=number, record=record, dealer=dealer, delta=delta,
                                  totals=totals, extras=extras, details=details, entered_at=finished_at))
        if len(hand_rows) >= 20000:
            Hand.objects.bulk_create(hand_rows, batch_size=5000)
            hand_rows = []
    Hand.objects.bulk_create(hand_rows, batch_size=5000)
    Game.objects.bulk_update(created, ["hand_count"], batch_size=2000)
    return league, people


def finish_one_more_game(league: League, people: list[Player]) -> Game:
    """One more finished Spades game with its hands, as if just recorded."""
    rng = random.Random(99)
    options, totals, winner, hands = play_template(rng, "spades") or (None, None, None, [])
    table = rng.sample(people, 4)
    game = Game.objects.create(
        game_type="spades", league=league, north=table[0], east=table[1], south=table[2], west=table[3],
        options=options, rules_version=RULES_VERSION, status=Game.Status.FINISHED, winner=winner, totals=totals,
        hand_count=len(hands), finished_at=datetime.now(UTC),
    )
    Hand.objects.bulk_create(
        Hand(game=game, number=n, record=r, dealer=d, delta=dl, totals=t, extras=e, details=dt)
        for n, (r, d, dl, t, e, dt) in enumerate(hands, 1)
    )
    return game


def stored_rows(league: League) -> list[list[tuple]]:
    """Every standings row of the league but for ids and times of computing, in a fixed order."""
    rows = []
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
        fields = [field.attname for field in model._meta.concrete_fields if field.name not in ("id", "computed_at")]
        rows.append(sorted(model.objects.filter(league=league).values_list(*fields), key=repr))
    return rows


def timed(function, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def machine() -> dict[str, str]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    with connection.cursor() as cursor:
        cursor.execute("select sqlite_version()" if connection.vendor == "sqlite" else "show server_version")
        db_version = cursor.fetchone()[0]
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": f"{cpu} ({os.cpu_count()} CPUs)",
        "memory": memory,
        "database": f"{connection.vendor} {db_version}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=220)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--keep", action="store_true", help="keep the synthetic league (with DATABASE_URL)")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    for name, value in machine().items():
        print(f"{name:>10}: {value}")

    build_time, (league, people) = timed(lambda: build_league(players=args.players, games=args.games))
    hands = Hand.objects.filter(game__league=league).count()
    print(f"\nleague: {args.players} players, {args.games} finished games, {hands} hands, "
          f"{Match.objects.filter(league=league).count()} Trumps matches (built in {build_time:.1f} s)")

    rebuild_time, summary = timed(lambda: league_standings_recompute(league_id=league.pk))
    print(f"rebuild:            {rebuild_time:7.2f} s  ({summary.standings} standing lines, {summary.ratings} "
          f"ratings, {summary.rating_changes} rating changes)")

    from games.tasks import league_standings_update

    finish_one_more_game(league, people)
    update_time, update = timed(lambda: league_standings_update.delay(league.pk).get())
    print(f"update (one game):  {update_time:7.2f} s  ({update['mode']}: {update['standings']} standing lines, "
          f"{update['ratings']} ratings, {update['rating_changes']} rating changes written)")
    again_time, again = timed(lambda: league_standings_update.delay(league.pk).get())
    print(f"update again:       {again_time:7.2f} s  ({again['mode']})")
    folded = stored_rows(league)
    check_time, _ = timed(lambda: league_standings_recompute(league_id=league.pk))
    print(f"rows after update = rows after rebuild: {'yes' if stored_rows(league) == folded else 'NO'} "
          f"(rebuild {check_time:.2f} s)")

    with CaptureQueriesContext(connection) as queries:
        read_time, standings = timed(lambda: league_standings(league=league), repeat=5)
    lines = sum(len(table["players"]) + len(table["partnerships"]) for table in standings["game_types"])
    print(f"standings read:     {read_time * 1000:7.1f} ms ({lines} lines, {len(queries) // 5} queries)")
    read_one, _ = timed(lambda: league_standings(league=league, game_type="smudge"), repeat=5)
    print(f"one game type read: {read_one * 1000:7.1f} ms")
    ratings_time, ratings = timed(lambda: player_ratings(player=people[0]), repeat=5)
    points = sum(len(entry["history"]) for entry in ratings)
    print(f"player ratings:     {ratings_time * 1000:7.1f} ms (with {points} history points)")
    reset_queries()

    if SCRATCH is None and not args.keep:
        for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
            model.objects.filter(league=league).delete()
        Hand.objects.filter(game__league=league).delete()
        Game.objects.filter(league=league).delete()
        Match.objects.filter(league=league).delete()
        league.delete()
        Player.objects.filter(pk__in=[person.pk for person in people]).delete()
    if SCRATCH is not None:
        connection.close()
        shutil.rmtree(SCRATCH, ignore_errors=True)  # the throwaway SQLite file (~165 MB)


if __name__ == "__main__":
    main()

"""Benchmark the standings: rebuild, updates, corrections and reads of a large synthetic league.

    .venv/bin/python bench/standings.py [--players 220] [--games 20000] [--keep] [--json FILE]

Builds a league of ``--players`` players and ``--games`` finished games (``bench/league.py``: every
game type, some cutthroat Spades, Trumps matches of three games, real hands played through the
engine), inserted in bulk. Then it times:

- the full rebuild of the league (``league_standings_recompute``);
- the update after one more game finishes (the ``league_standings_update`` task, in-process), which
  folds the new game into the stored rows, and the same update run again (nothing new);
- corrections of counted games, each through the services and followed by the task: an undo in the
  last game counted, the hand recorded again, a correction in the middle game and one in the first
  game of the league (the same winners: no rating moves), and the winner of the league's second game
  changed (every rating of its type after it is learned again); each says when the tables were right
  and when the ratings were; and checks that the rows they left are exactly those of a full rebuild;
- the standings read (a page of every table, and every line) and a player's ratings.

Without ``DATABASE_URL`` it works in a throwaway SQLite file; with it, in that database (the
league and its players are deleted afterwards unless ``--keep``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

T = TypeVar("T")

SCRATCH = None
if not os.environ.get("DATABASE_URL"):
    SCRATCH = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{SCRATCH}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
# Tasks are queued (to Celery's in-memory broker, where nobody takes them) and run here by hand, so that
# each is timed on its own, apart from the service call that queued it.
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.league import build_league, finish_one_more_game  # noqa: E402
from games.models import (  # noqa: E402
    CountedResult,
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
from games.standings.selectors import league_standings, player_ratings, standings_page  # noqa: E402
from games.standings.services import league_standings_recompute  # noqa: E402


def stored_rows(league: League) -> list[list[tuple]]:
    """Every standings row of the league but for ids and times of computing, in a fixed order."""
    rows = []
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
        fields = [field.attname for field in model._meta.concrete_fields if field.name not in ("id", "computed_at")]
        rows.append(sorted(model.objects.filter(league=league).values_list(*fields), key=repr))
    return rows


def timed(function: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    times = []
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


def rebuild_phases(league: League) -> list[tuple[str, float, float]]:
    """A rebuild again, phase by phase: (phase, seconds, CPU seconds of this process), in a transaction
    rolled back at the end (its foreign keys checked first, as a commit would). The CPU shows what is
    Python's; the rest of the time is the database's."""
    from django.db import transaction
    from django.utils import timezone

    from games.standings.facts import facts_of, figures_of, finished_rows
    from games.standings.ratings import league_ratings
    from games.standings.scope import Scope
    from games.standings.services import lock_league
    from games.standings.storage import replace_rows
    from games.standings.tables import league_table

    phases: list[tuple[str, float, float]] = []

    def phase(name: str, work):
        started, cpu = time.perf_counter(), time.process_time()
        result = work()
        phases.append((name, time.perf_counter() - started, time.process_time() - cpu))
        return result

    with transaction.atomic():
        lock_league(league.pk)
        scope = Scope.all_time(league.pk)
        rows = phase("read the finished games and matches", lambda: finished_rows(scope))
        facts = phase("turn them into facts", lambda: facts_of(rows))
        lines = phase("tables", lambda: league_table(facts.games, facts.matches))
        ratings = phase("ratings (OpenSkill)", lambda: league_ratings(facts.games, facts.matches))
        figures, _ = phase("read and decode every hand, add up the figures", lambda: figures_of(scope, facts))
        phase("write the rows", lambda: replace_rows(scope, lines, ratings, figures.players(facts.seats),
                                                     timezone.now(), rows.prints(facts, figures)))
        if connection.vendor == "postgresql":
            # The rows' foreign keys (to the league, players, games, matches) are checked at commit, one
            # look-up per key per row; here they are checked at once, as the commit would.
            phase("check the rows' foreign keys (at commit)", lambda: connection.cursor().execute(
                "SET CONSTRAINTS ALL IMMEDIATE"))
        transaction.set_rollback(True)
    return phases


def corrections(league: League, people: list[Player], report: dict) -> None:
    """Corrections of counted games, each followed by the standings task, as a scorekeeper would make them: how long
    the request took, when the tables were right (committed) and when the ratings were (learned again after)."""
    from django.contrib.auth import get_user_model

    from games.models import Membership
    from games.services import hand_correct, hand_record, hand_undo
    from games.tasks import league_standings_update

    keeper = get_user_model().objects.create_user(username=f"bench-keeper-{time.time_ns()}", password="x" * 20)
    Membership.objects.create(league=league, user=keeper, role=Membership.Role.OWNER)
    counted = list(Game.objects.filter(league=league, status=Game.Status.FINISHED, match__isnull=True)
                   .order_by("finished_at", "id").values_list("id", flat=True))

    def show(label: str, key: str, request_seconds: float) -> None:
        summary = league_standings_update(league.pk)
        report[key] = {"request_seconds": request_seconds, "tables_seconds": summary["tables_seconds"],
                       "update_seconds": summary["seconds"], "mode": summary["mode"],
                       "rating_changes": summary["rating_changes"], "standings": summary["standings"],
                       "hands": summary["hands"]}
        print(f"{label:<36}tables {summary['tables_seconds']:6.2f} s, ratings {summary['seconds']:6.2f} s  "
              f"({summary['mode']}: {summary['standings']} standing lines, {summary['hands']} hands read, "
              f"{summary['rating_changes']} rating changes rewritten; the request itself "
              f"{request_seconds * 1000:.0f} ms)")

    last = Game.objects.get(pk=counted[-1])
    record = Hand.objects.get(game=last, number=last.hand_count).record
    request_seconds, _ = timed(lambda: hand_undo(game=last, by=keeper, reason="bench"))
    show("undo in the last game counted:", "undo_last", request_seconds)
    request_seconds, _ = timed(lambda: hand_record(game=last, record=record, by=keeper))
    show("the same hand recorded again:", "record_again", request_seconds)
    for label, key, game_id in (("correction in the middle game:", "correct_middle", counted[len(counted) // 2]),
                                ("correction in the first game:", "correct_first", counted[0])):
        game = Game.objects.get(pk=game_id)
        first_hand = Hand.objects.get(game=game, number=1).record
        request_seconds, _ = timed(partial(hand_correct, game=game, number=1, record=first_hand, by=keeper,
                                           reason="bench"))
        show(label, key, request_seconds)
    # The first game of its type played again with its last hand taken back and the other side winning: every
    # rating of the type after it moves.
    game = Game.objects.get(pk=counted[1])
    request_seconds, _ = timed(lambda: flip_winner(game, keeper))
    show("the first game's winner changed:", "winner_changed", request_seconds)


def pages_read(league: League) -> list[dict]:
    """The standings API's first page and the page of the player with the most games, as anyone reads them (Django's
    test client, in this process): median time of five, queries and size."""
    from collections import Counter

    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    if connection.vendor == "postgresql":
        # The league was written a moment ago, faster than autovacuum analyzes it: without statistics PostgreSQL
        # plans these reads as for an empty table (the standings API's first page took 250 ms at 20,000 games
        # instead of 70), which a league that grew over months never meets.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    played: Counter[int] = Counter()
    for seat in Game.SEAT_FIELDS.values():
        played.update(dict(Game.objects.filter(league=league).order_by().values_list(f"{seat}_id")
                           .annotate(games=Count("id"))))
    busiest, games = played.most_common(1)[0]
    client, reads = Client(), []
    for page, url in (("standings API, page 1", reverse("api-standings", args=[league.pk])),
                      (f"busiest player's page ({games:,} games)", reverse("player", args=[busiest]))):
        times = []
        for _ in range(5):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"GET {url} answered {response.status_code}")
        reads.append({"page": page, "url": url, "median_ms": statistics.median(times) * 1000,
                      "queries": len(queries), "bytes": len(response.content)})
    return reads


def flip_winner(game: Game, keeper) -> None:
    """Take the game's last hand back and play on until the other side has won, through the services (a game that
    finishes again finishes now: it moves to the end of the league, and every result of its type from where it
    was is learned again). Each hand is the best for the losing side of a few random ones, as the engine scores
    them from the game's state: random hands alone can wander for thousands of hands (two Spades sides that
    overbid go down together and nobody reaches the target)."""
    import random

    from bench.league import TEMPLATES
    from games.rules import InvalidHand
    from games.services import hand_record, hand_undo
    from games.summary import game_state

    before, rng = game.winner, random.Random(3)
    make, _ = TEMPLATES[game.game_type]

    def lead_of_others(state) -> float:
        if state.finished:
            return float("inf") if state.winner != before else float("-inf")
        return max(total for side, total in state.totals.items() if side != before) - state.totals[before]

    hand_undo(game=game, by=keeper, reason="bench")
    for _ in range(500):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            if game.winner != before:
                return
            hand_undo(game=game, by=keeper, reason="bench")
            continue
        state, candidates = game_state(game), []
        for _ in range(30):
            record = make(rng)
            try:
                candidates.append((lead_of_others(game.ruleset.play(state, record)), record))
            except InvalidHand:
                continue
        if candidates:
            hand_record(game=game, record=max(candidates, key=lambda scored: scored[0])[1], by=keeper)
    raise RuntimeError(f"could not change who won game {game.pk}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=220)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--keep", action="store_true", help="keep the synthetic league (with DATABASE_URL)")
    parser.add_argument("--json", type=Path, help="also write the timings to this file, as JSON")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    for name, value in machine().items():
        print(f"{name:>10}: {value}")

    build_time, (league, people) = timed(lambda: build_league(players=args.players, games=args.games))
    hands = Hand.objects.filter(game__league=league).count()
    print(f"\nleague: {args.players} players, {args.games} finished games, {hands} hands, "
          f"{Match.objects.filter(league=league).count()} Trumps matches (built in {build_time:.1f} s)")

    report: dict = {"games": args.games, "players": args.players, "hands": hands}
    started_cpu = time.process_time()
    rebuild_time, summary = timed(lambda: league_standings_recompute(league_id=league.pk))
    report["rebuild_seconds"] = rebuild_time
    # Standing lines, ratings, rating changes and the results counted (the figures' few rows aside).
    report["rebuild_rows"] = (summary.standings + summary.ratings + summary.rating_changes + summary.games
                              + summary.matches)
    print(f"rebuild:                          {rebuild_time:7.2f} s  ({summary.standings} standing lines, "
          f"{summary.ratings} ratings, {summary.rating_changes} rating changes; "
          f"{time.process_time() - started_cpu:.2f} s of it CPU in this process)")
    report["rebuild_phases"] = rebuild_phases(league)
    for name, seconds, cpu in report["rebuild_phases"]:
        print(f"  {name + ':':<50}{seconds:6.2f} s  ({cpu:.2f} s CPU here)")

    from games.tasks import league_standings_update

    # One more game, five times over: the median, as one update of some tens of milliseconds is easily
    # stretched by whatever else the machine runs at that moment.
    updates = []
    for seed in range(99, 104):
        finish_one_more_game(league, people, seed=seed)
        updates.append(timed(lambda: league_standings_update(league.pk)))
    update_time, update = sorted(updates, key=lambda timing: timing[0])[len(updates) // 2]
    report["update_seconds"], report["update_mode"] = update_time, update["mode"]
    report["update_each_seconds"] = [seconds for seconds, _ in updates]
    print(f"update (one more game):           {update_time:7.3f} s  (median of {len(updates)}, each "
          f"{', '.join(f'{seconds * 1000:.0f}' for seconds, _ in updates)} ms; {update['mode']}: "
          f"{update['standings']} standing lines, {update['ratings']} ratings, {update['rating_changes']} rating "
          f"changes written, {update['hands']} hands read)")
    again_time, again = timed(lambda: league_standings_update(league.pk))
    print(f"update again:                     {again_time:7.3f} s  ({again['mode']})")
    corrections(league, people, report)
    folded = stored_rows(league)
    check_time, _ = timed(lambda: league_standings_recompute(league_id=league.pk))
    report["same_as_rebuild"] = stored_rows(league) == folded
    report["second_rebuild_seconds"] = check_time
    print(f"rows after all that = rows after a rebuild: {'yes' if report['same_as_rebuild'] else 'NO'} "
          f"(rebuild {check_time:.2f} s)")

    with CaptureQueriesContext(connection) as queries:
        read_time, page = timed(lambda: standings_page(league=league), repeat=5)
    print(f"standings, first page:            {read_time * 1000:7.1f} ms ({len(queries) // 5} queries, "
          f"{sum(len(table['players']) + len(table['partnerships']) for table in page['game_types'])} lines)")
    read_time, standings = timed(lambda: league_standings(league=league), repeat=3)
    lines = sum(len(table["players"]) + len(table["partnerships"]) for table in standings["game_types"])
    print(f"standings, every line:            {read_time * 1000:7.1f} ms ({lines} lines)")
    ratings_time, ratings = timed(lambda: player_ratings(player=people[0]), repeat=5)
    points = sum(len(entry["history"]) for entry in ratings)
    print(f"player ratings:                   {ratings_time * 1000:7.1f} ms (with {points} history points)")
    report["reads"] = pages_read(league)
    for entry in report["reads"]:
        print(f"{entry['page'] + ':':<34}{entry['median_ms']:7.1f} ms ({entry['queries']} queries, "
              f"{entry['bytes'] / 1024:.1f} KiB)")
    reset_queries()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))

    if SCRATCH is None and not args.keep:
        for model in (Standing, PlayerRating, RatingChange, PlayerFigures, CountedResult):
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

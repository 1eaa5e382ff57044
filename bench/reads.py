"""Reads: the game, the league page, a whole table, the standings API and the spectator board, at two league sizes.

Run by ``bench/run.py`` in-process with Django's test client against the bench database: each page is
timed (median and 90th percentile of repeated requests, after a warm-up), its queries counted with
``CaptureQueriesContext`` and its size measured; the ones with an ETag are asked again with
``If-None-Match`` (once with the tag as a proxy passes it on, weak) and must answer 304. The spectator
board is measured twice: as every watcher of a version but the first gets it (rendered once, kept in the
cache), and as the first does (the cache emptied before each request). The leagues are
built by bench/league.py (finished games of every type with real hands) and their standings computed
once, and that rebuild is timed too.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from loadtest.client import percentile

SIZES = {"small": (40, 400), "large": (220, 4000)}  # players, finished games


def timed_get(client: Client, url: str, *, status: int = 200, headers: dict[str, str] | None = None,
              repeats: int = 30, seconds: float = 10.0, before: Any = None) -> dict[str, Any]:
    """``before``: called before each request (outside the time measured)."""
    headers = headers or {}
    before = before or (lambda: None)
    before()
    response = client.get(url, headers=headers)
    if response.status_code != status:
        raise RuntimeError(f"GET {url} answered {response.status_code}, not {status}")
    before()
    with CaptureQueriesContext(connection) as captured:
        client.get(url, headers=headers)
    queries = len(captured)  # now: the captured list is read from the connection's log, which the next request clears
    times = []
    stop_at = time.perf_counter() + seconds
    for _ in range(repeats):
        before()
        started = time.perf_counter()
        client.get(url, headers=headers)
        times.append(time.perf_counter() - started)
        if time.perf_counter() > stop_at:
            break
    return {"url": url, "status": response.status_code, "queries": queries,
            "median_ms": statistics.median(times) * 1000, "p90_ms": percentile(times, 0.9) * 1000,
            "bytes": len(response.content), "runs": len(times), "etag": response.get("ETag")}


def pages_of(league, game) -> list[tuple[str, str, bool]]:
    """(name, url, answers If-None-Match) of every read measured."""
    return [
        (f"game page ({game.hand_count} hands)", reverse("table", args=[game.pk]), False),
        (f"API game detail ({game.hand_count} hands)", reverse("api-game", args=[game.pk]), True),
        ("spectator board", reverse("live-board", args=[game.pk]), True),
        ("league page (top of each table)", reverse("league", args=[league.slug]), False),
        ("whole table, players (page 1)", reverse("league-table", args=[league.slug, "spades", "players"]), False),
        ("whole table, partnerships (page 1)",
         reverse("league-table", args=[league.slug, "spades", "partnerships"]), False),
        ("API standings (page 1 of every table)", reverse("api-standings", args=[league.pk]), True),
        ("API standings, one game type, page 2",
         reverse("api-standings", args=[league.pk]) + "?game_type=smudge&page=2", True),
    ]


def run(sizes: dict[str, tuple[int, int]] = SIZES) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(read rows, rebuild rows): each read at each league size, and how long each league took to rebuild."""
    from bench.league import build_league
    from games.models import Game, Hand
    from games.standings.services import league_standings_recompute

    client = Client()
    reads, rebuilds = [], []
    for size, (players, games) in sizes.items():
        started = time.perf_counter()
        league, _ = build_league(players=players, games=games, seed=11)
        built = time.perf_counter() - started
        started = time.perf_counter()
        summary = league_standings_recompute(league_id=league.pk)
        rebuilds.append({"league": size, "players": players, "games": games,
                         "hands": Hand.objects.filter(game__league=league).count(),
                         "build_seconds": built, "rebuild_seconds": time.perf_counter() - started,
                         "standing_lines": summary.standings})
        game = Game.objects.filter(league=league).order_by("-hand_count", "id").first()
        label = f"{size} league ({players} players, {games} games)"
        for name, url, conditional in pages_of(league, game):
            row = {"league": label, "size": size, "page": name, **timed_get(client, url)}
            reads.append(row)
            if conditional:
                for how, tag in (("", row["etag"]), (", weak tag", f"W/{row['etag']}")):
                    reads.append({"league": label, "size": size, "page": f"{name}: If-None-Match{how}",
                                  **timed_get(client, url, status=304, headers={"If-None-Match": tag})})
            if name == "spectator board":
                # The same board as its first watcher gets it: rendered, no version stored yet.
                reads.append({"league": label, "size": size, "page": f"{name}: rendered (first watcher)",
                              **timed_get(client, url, before=cache.clear)})
    return reads, rebuilds

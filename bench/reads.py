"""Reads: the game page, the API game detail and the league standings, at two league sizes.

Run by ``bench/run.py`` in-process with Django's test client against the bench database:
each page is timed (median and 90th percentile of repeated requests, after a warm-up) and its
queries counted with ``CaptureQueriesContext``. The leagues are built by bench/standings.py
(finished games of every type with real hands) and their standings computed once, and that
rebuild is timed too.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from loadtest.client import percentile

SIZES = {"small": (40, 400), "large": (220, 4000)}  # players, finished games


def timed_get(client: Client, url: str, *, repeats: int = 30, seconds: float = 10.0) -> dict[str, Any]:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    queries = len(captured)  # now: the captured list is read from the connection's log, which the next request clears
    times = []
    stop_at = time.perf_counter() + seconds
    for _ in range(repeats):
        started = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - started)
        if time.perf_counter() > stop_at:
            break
    return {"url": url, "queries": queries, "median_ms": statistics.median(times) * 1000,
            "p90_ms": percentile(times, 0.9) * 1000, "bytes": len(response.content), "runs": len(times)}


def standings_urls(league) -> list[tuple[str, str]]:
    urls = [("league page (HTML standings)", reverse("league", args=[league.slug]))]
    try:
        urls.append(("API league standings", reverse("api-standings", args=[league.pk])))
    except NoReverseMatch:
        pass
    return urls


def run(sizes: dict[str, tuple[int, int]] = SIZES) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(read rows, rebuild rows): each page at each league size, and how long each league took to rebuild."""
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
        pages = [(f"game page ({game.hand_count} hands)", reverse("table", args=[game.pk])),
                 (f"API game detail ({game.hand_count} hands)", reverse("api-game", args=[game.pk])),
                 *standings_urls(league)]
        for name, url in pages:
            reads.append({"league": label, "page": name, **timed_get(client, url)})
    return reads, rebuilds

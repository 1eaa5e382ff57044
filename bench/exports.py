"""Exports as a league grows: the owner's league backup and the games CSV, sent as they are read.

Run by ``bench/run.py`` (``make bench``, and ``--growth`` at larger sizes): leagues built by bench/league.py
in the bench database, then each download asked for in a fresh process of its own (``python -m
bench.exports``, Django's test client, the production code path without an HTTP server), which reports the
time to its first byte, the time to its last, its size and how much the process's peak memory (resident
set) grew while it was sent. The growth factors between two sizes, taken in the same run, say whether time
and memory follow the league (time should, about in proportion; memory should not).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOWNLOADS = ("league backup", "games CSV")


def url_of(download: str, slug: str) -> str:
    return f"/leagues/{slug}/backup.json" if download == "league backup" else f"/leagues/{slug}/games.csv"


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def fetch(download: str, league_id: int) -> dict[str, Any]:
    """In this process (Django set up): the download, as the owner, read to its end."""
    from django.test import Client

    from games.models import League, Membership

    league = League.objects.get(pk=league_id)
    owner = Membership.objects.filter(league=league, role=Membership.Role.OWNER).select_related("user").first()
    client = Client()
    if owner is not None:
        client.force_login(owner.user)
    client.get(f"/leagues/{league.slug}/")  # imports and connections warmed, not measured
    before = peak_mib()
    started = time.perf_counter()
    response = client.get(url_of(download, league.slug))
    if response.status_code != 200:
        raise RuntimeError(f"{download} answered {response.status_code}")
    first = None
    size = 0
    for chunk in response.streaming_content if response.streaming else [response.content]:
        if first is None:
            first = time.perf_counter() - started
        size += len(chunk)
    return {"download": download, "first_byte_seconds": first or 0.0, "seconds": time.perf_counter() - started,
            "bytes": size, "peak_growth_mib": peak_mib() - before}


def measured(download: str, league_id: int, database_url: str) -> dict[str, Any]:
    """:func:`fetch` in a fresh process (its peak memory is this download's alone)."""
    done = subprocess.run([sys.executable, "-m", "bench.exports", "--download", download, "--league", str(league_id)],
                          env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"},
                          capture_output=True, text=True, timeout=3600, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bench.exports failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(sizes: tuple[int, ...], database_url: str, *, players: int = 220, budget: float = 600.0) -> list[dict[str, Any]]:
    """Each download at each league size (finished games), measured in a process of its own. A size is left out
    when building the leagues so far, scaled up to it, would take the building past ``budget`` seconds."""
    from django.contrib.auth import get_user_model

    from bench.league import build_league
    from games.models import Hand, Membership

    owner = get_user_model().objects.create_user(username=f"bench-owner-{time.time_ns()}", password="bench-x1-pass")
    rows = []
    spent = 0.0
    per_game = 0.0
    for games in sizes:
        if per_game and spent + per_game * games > budget:
            print(f"  {games:,} games left out: building it would take about {per_game * games:.0f} s more", flush=True)
            break
        started = time.perf_counter()
        league, _ = build_league(players=players, games=games, seed=13)
        built = time.perf_counter() - started
        spent += built
        per_game = built / games
        Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
        hands = Hand.objects.filter(game__league=league).count()
        print(f"  league of {games:,} games ({hands:,} hands) built in {built:.0f} s", flush=True)
        for download in DOWNLOADS:
            rows.append({"games": games, "hands": hands, **measured(download, league.pk, database_url)})
    return rows


def growth(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per download, from each size to the next: how many times the games, the time and the peak memory grew."""
    out = []
    for download in DOWNLOADS:
        mine = sorted((row for row in rows if row["download"] == download), key=lambda row: row["games"])
        for small, large in zip(mine, mine[1:], strict=False):
            out.append({"download": download, "from": small["games"], "to": large["games"],
                        "games": large["games"] / small["games"],
                        "time": large["seconds"] / small["seconds"] if small["seconds"] else 0.0,
                        "memory": (max(large["peak_growth_mib"], 1.0) / max(small["peak_growth_mib"], 1.0))})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="One download, in this process: JSON on the last line.")
    parser.add_argument("--download", choices=DOWNLOADS, required=True)
    parser.add_argument("--league", type=int, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bench.run import setup_django

    setup_django(os.environ["DATABASE_URL"])
    print(json.dumps(fetch(args.download, args.league)))


if __name__ == "__main__":
    main()

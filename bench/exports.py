"""Exports as a league grows: the owner's league backup and the games CSV, sent as they are read; and the
restore of that backup into a new league.

Run by ``bench/run.py`` (``make bench``, and ``--growth`` at larger sizes): leagues built by bench/league.py
in the bench database, then each download asked for in a fresh process of its own (``python -m
bench.exports``, Django's test client, the production code path without an HTTP server), which reports the
time to its first byte, the time to its last, its size and how much the process's peak memory (resident
set) grew while it was sent. The growth factors between two sizes, taken in the same run, say whether time
and memory follow the league (time should, about in proportion; memory should not).

The restore: the backup just downloaded, saved to a file, is posted as the body of ``POST
/api/v1/leagues/imports/`` in a fresh process through Django's WSGI handler, the body read from the file as
a server hands it over (never whole in memory). Bigger than 2.5 MB, the request stores it and answers 202;
with no broker the restore then runs in the same process once the response is closed, as it does in a web
process without a worker. Measured: the request's own time, the whole time until the restore is done, and the
process's peak resident memory (absolute, and its growth) until the league is restored, and with its
standings computed after it (in this process too, without a broker; a task of its own with a worker).
"""

from __future__ import annotations

import argparse
import io
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


def restore(path: str, owner_id: int) -> dict[str, Any]:
    """In this process (Django set up): the backup file posted to the API as its body, then restored."""
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from rest_framework.authtoken.models import Token

    from games.models import League, LeagueRestore

    token, _ = Token.objects.get_or_create(user=get_user_model().objects.get(pk=owner_id))
    handler = WSGIHandler()
    statuses: list[str] = []

    def call(method: str, path_info: str, query: str = "", body: Any = None, size: int = 0) -> tuple[Any, float]:
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path_info, "QUERY_STRING": query, "SERVER_NAME": "localhost",
                   "SERVER_PORT": "80", "HTTP_HOST": "localhost", "wsgi.url_scheme": "http",
                   "wsgi.input": body if body is not None else io.BytesIO(b""),
                   "wsgi.errors": sys.stderr, "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(size),
                   "HTTP_AUTHORIZATION": f"Token {token.key}"}
        started = time.perf_counter()
        response = handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
        answered = time.perf_counter() - started
        b"".join(response)
        response.close()  # request_finished: work held until the answer was sent runs now
        return response, answered

    call("GET", "/api/v1/leagues/")  # imports and connections warmed, not measured
    # Once the restore commits, the league's standings are recomputed: here in this process too (no broker), a
    # task of its own with a worker. The peak is also taken before it starts: the restore's alone.
    from games import tasks

    before_standings: list[float] = []
    recompute = tasks.queue_standings_recompute

    def measured_recompute(league_id: int) -> None:
        before_standings.append(peak_mib())
        recompute(league_id)

    tasks.queue_standings_recompute = measured_recompute
    size = os.path.getsize(path)
    slug = f"restored-{time.time_ns()}"
    before = peak_mib()
    started = time.perf_counter()
    with open(path, "rb") as body:
        response, answered = call("POST", "/api/v1/leagues/imports/", f"slug={slug}", body, size)
    seconds = time.perf_counter() - started
    if response.status_code not in (201, 202):
        raise RuntimeError(f"the restore answered {response.status_code}: {response.content[:500]!r}")
    made = LeagueRestore.objects.order_by("-pk").first()
    if response.status_code == 202 and (made is None or made.state != LeagueRestore.State.DONE):
        raise RuntimeError(f"the restore ended {made.state if made else 'missing'}: {made.problems if made else ''}")
    if not League.objects.filter(slug=slug).exists():
        raise RuntimeError("the restore made no league")
    restored_peak = before_standings[0] if before_standings else peak_mib()
    return {"status": response.status_code, "request_seconds": answered, "seconds": seconds, "bytes": size,
            "peak_mib": restored_peak, "peak_growth_mib": restored_peak - before, "peak_with_standings_mib": peak_mib()}


def measured_restore(path: Path, owner_id: int, database_url: str) -> dict[str, Any]:
    """:func:`restore` in a fresh process (its peak memory is this restore's alone)."""
    done = subprocess.run([sys.executable, "-m", "bench.exports", "--restore", str(path), "--owner", str(owner_id)],
                          env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"},
                          capture_output=True, text=True, timeout=7200, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bench.exports --restore failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measured(download: str, league_id: int, database_url: str) -> dict[str, Any]:
    """:func:`fetch` in a fresh process (its peak memory is this download's alone)."""
    done = subprocess.run([sys.executable, "-m", "bench.exports", "--download", download, "--league", str(league_id)],
                          env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"},
                          capture_output=True, text=True, timeout=3600, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bench.exports failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(sizes: tuple[int, ...], database_url: str, *, players: int = 220,
        budget: float = 600.0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each download at each league size (finished games), then the restore of its backup, each measured in a
    process of its own: (the downloads' rows, the restores'). A size is left out when building the leagues so
    far, scaled up to it, would take the building past ``budget`` seconds."""
    import tempfile

    from django.contrib.auth import get_user_model

    from bench.league import build_league
    from games.models import Hand, Membership
    from games.services.transfer import league_backup

    owner = get_user_model().objects.create_user(username=f"bench-owner-{time.time_ns()}", password="bench-x1-pass")
    rows = []
    restores = []
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
        with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-restore-") as folder:
            path = Path(folder) / "backup.json"
            with path.open("wb") as file:
                for chunk in league_backup(league=league):
                    file.write(chunk)
            restores.append({"games": games, "hands": hands, **measured_restore(path, owner.pk, database_url)})
        print(f"  restored in {restores[-1]['seconds']:.0f} s (the request {restores[-1]['request_seconds']:.1f} s), "
              f"peak {restores[-1]['peak_mib']:.0f} MiB", flush=True)
    return rows, restores


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
    parser = argparse.ArgumentParser(description="One download, or one restore, in this process: JSON on the last line.")
    parser.add_argument("--download", choices=DOWNLOADS)
    parser.add_argument("--league", type=int)
    parser.add_argument("--restore", help="a backup file to restore")
    parser.add_argument("--owner", type=int, help="the user restoring it")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bench.run import setup_django

    setup_django(os.environ["DATABASE_URL"])
    if args.restore:
        print(json.dumps(restore(args.restore, args.owner)))
    else:
        print(json.dumps(fetch(args.download, args.league)))


if __name__ == "__main__":
    main()

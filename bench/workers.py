"""How many gunicorn workers record hands fastest on this machine: gunicorns of different sizes side by side.

Run by ``bench/run.py``: one gunicorn per worker count (the number of cores, one more, and gunicorn's usual
2 × cores + 1), and one of as many workers as cores with ``THREADS`` threads each,
all started at once on the bench database; then turns of 16 clients recording hands, each turn on the next
gunicorn in line, round after round, so that whatever else the machine does weighs on every size alike. The
defaults in ``gunicorn.conf.py`` (``WEB_WORKERS``, ``WEB_THREADS``) are chosen from this (docs/deploy.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from loadtest import stack as services
from loadtest.client import Api

from .recording import Recorder, bench_fixtures, merged, run_level

CLIENTS = 16
# The threads a worker of the threaded gunicorn, beside those of one thread.
THREADS = 4


def sizes() -> list[int]:
    cores = os.cpu_count() or 1
    return sorted({cores, cores + 1, 2 * cores + 1})


def lineup(threads: int = 1) -> list[tuple[int, int]]:
    """(workers, threads a worker) of each gunicorn: the sizes with ``threads`` each (the run's), and as many
    workers as cores with ``THREADS`` threads each when the run's are fewer."""
    cores = os.cpu_count() or 1
    return [*((workers, threads) for workers in sizes()), *([(cores, THREADS)] if threads < THREADS else [])]


def label(workers: int, threads: int) -> str:
    return str(workers) if threads <= 1 else f"{workers} × {threads} threads"


def run(env: dict[str, str], workdir: Path, *, seconds: float = 24.0, rounds: int = 8) -> list[dict[str, Any]]:
    """Per gunicorn of the lineup: hands per second and latency at 16 clients, over ``rounds`` turns of each."""
    servers = {}
    try:
        for workers, threads in lineup(int(env.get("WEB_THREADS") or 1)):
            servers[workers, threads] = services.gunicorn(env={**env, "WEB_THREADS": str(threads)},
                                                          log=workdir / f"gunicorn-{workers}-{threads}.log",
                                                          workers=workers)
        token, games = bench_fixtures(CLIENTS)
        clients = {workers: [Recorder(Api(server.url, token=token), game, seed)
                             for seed, game in enumerate(games)] for workers, server in servers.items()}
        # Each gunicorn records into the same games, one after the other: hand numbers carry on.
        numbers = [0] * CLIENTS
        turns: dict[tuple[int, int], list] = {size: [] for size in servers}
        for (workers, threads), recorders in clients.items():  # warm every worker of every gunicorn
            for recorder, number in zip(recorders, numbers, strict=True):
                recorder.number = number
            run_level("warm-up", recorders, seconds=2, max_requests=4 * workers * threads * 4)
            numbers = [recorder.number for recorder in recorders]
        for _ in range(rounds):
            for size, recorders in clients.items():
                for recorder, number in zip(recorders, numbers, strict=True):
                    recorder.number = number
                turns[size].append(run_level("record a hand", recorders, seconds=seconds / rounds / len(servers),
                                                max_requests=100_000))
                numbers = [recorder.number for recorder in recorders]
        return [{**merged(levels).row(), "workers": workers, "threads": threads, "label": label(workers, threads)}
                for (workers, threads), levels in turns.items()]
    finally:
        for server in servers.values():
            server.stop()

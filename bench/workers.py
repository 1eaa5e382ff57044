"""How many gunicorn workers record hands fastest on this machine: gunicorns of different sizes side by side.

Run by ``bench/run.py``: one gunicorn per worker count (the number of cores, one more, and gunicorn's usual
2 × cores + 1), all started at once on the bench database; then turns of 16 clients recording hands, each turn
on the next gunicorn in line, round after round, so that whatever else the machine does weighs on every size
alike. The default in ``gunicorn.conf.py`` (``WEB_WORKERS``) is chosen from this (docs/deploy.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from loadtest import stack as services
from loadtest.client import Api

from .recording import Recorder, bench_fixtures, merged, run_level

CLIENTS = 16


def sizes() -> list[int]:
    cores = os.cpu_count() or 1
    return sorted({cores, cores + 1, 2 * cores + 1})


def run(env: dict[str, str], workdir: Path, *, seconds: float = 24.0, rounds: int = 8) -> list[dict[str, Any]]:
    """Per worker count: hands per second and latency at 16 clients, over ``rounds`` turns of each."""
    servers = {}
    try:
        for workers in sizes():
            servers[workers] = services.gunicorn(env=env, log=workdir / f"gunicorn-{workers}.log", workers=workers)
        token, games = bench_fixtures(CLIENTS)
        clients = {workers: [Recorder(Api(server.url, token=token), game, seed)
                             for seed, game in enumerate(games)] for workers, server in servers.items()}
        # Each gunicorn records into the same games, one after the other: hand numbers carry on.
        numbers = [0] * CLIENTS
        turns: dict[int, list] = {workers: [] for workers in servers}
        for workers, recorders in clients.items():  # warm every worker of every gunicorn
            for recorder, number in zip(recorders, numbers, strict=True):
                recorder.number = number
            run_level("warm-up", recorders, seconds=2, max_requests=4 * workers * 4)
            numbers = [recorder.number for recorder in recorders]
        for _ in range(rounds):
            for workers, recorders in clients.items():
                for recorder, number in zip(recorders, numbers, strict=True):
                    recorder.number = number
                turns[workers].append(run_level("record a hand", recorders, seconds=seconds / rounds / len(servers),
                                                max_requests=100_000))
                numbers = [recorder.number for recorder in recorders]
        return [{**merged(levels).row(), "workers": workers} for workers, levels in turns.items()]
    finally:
        for server in servers.values():
            server.stop()

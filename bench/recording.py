"""Recording through the real HTTP stack: hands per second and latency at 1, 4 and 16 clients.

Run by ``bench/run.py`` (``make bench``), which starts gunicorn (production settings, the
project's gunicorn.conf.py) on a fresh PostgreSQL database. Each client records hands into its
own long Spades game (a target out of reach), every hand with ``expected_number`` and an
``Idempotency-Key``, as a phone does; beside it, at the same concurrency, the minimal DRF
endpoint of bench/endpoint.py inserts one row per request. Each level runs for a fixed time and
at most a fixed number of requests, in alternating turns of the two.
"""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loadtest.client import Api, percentile

LEVELS = (1, 4, 16)
# CPU seconds so far: of each web worker and each database backend (by process id), and of this process.
Snapshot = tuple[dict[int, float], dict[int, float], float]


class CpuMeter:
    """CPU seconds used so far by gunicorn's workers, by the database's server processes for the bench database,
    and by this process (the clients), read from /proc (Linux; zeros elsewhere): where a request's time goes."""

    def __init__(self, gunicorn_pid: int | None = None, database: str | None = None):
        self.gunicorn_pid, self.database = gunicorn_pid, database
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def processes(self) -> tuple[list[int], list[int]]:
        workers, backends = [], []
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, ValueError, IndexError):
                continue
            if self.gunicorn_pid and parent == self.gunicorn_pid:
                workers.append(int(entry.name))
            elif self.database and command.startswith(f"postgres: postgres {self.database} "):
                backends.append(int(entry.name))
        return workers, backends

    def cpu(self, pid: int) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / self.tick
        except (OSError, ValueError, IndexError):
            return 0.0

    def snapshot(self) -> Snapshot:
        if not Path("/proc").is_dir():
            return {}, {}, time.process_time()
        workers, backends = self.processes()
        return ({pid: self.cpu(pid) for pid in workers}, {pid: self.cpu(pid) for pid in backends},
                time.process_time())

    @staticmethod
    def spent(before: Snapshot, after: Snapshot) -> tuple[float, float, float]:
        """CPU seconds between two snapshots: (web workers, database, clients)."""
        def grown(old: dict[int, float], new: dict[int, float]) -> float:
            return sum(value - old.get(pid, 0.0) for pid, value in new.items())
        return grown(before[0], after[0]), grown(before[1], after[1]), after[2] - before[2]


@dataclass
class Level:
    target: str
    clients: int
    requests: int
    errors: int
    seconds: float
    latencies: list[float]
    cpu: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def row(self) -> dict[str, Any]:
        per_request = [1000 * spent / self.requests if self.requests else 0.0 for spent in self.cpu]
        return {"target": self.target, "clients": self.clients, "requests": self.requests, "errors": self.errors,
                "per_second": self.per_second, "p50_ms": percentile(self.latencies, 0.5) * 1000,
                "p99_ms": percentile(self.latencies, 0.99) * 1000, "cpu_web_ms": per_request[0],
                "cpu_database_ms": per_request[1], "cpu_clients_ms": per_request[2]}


def bench_fixtures(clients: int) -> tuple[str, list[int]]:
    """A user with a token, a league and ``clients`` long Spades games (in-process, in the bench database)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.services import game_start, league_create, player_create

    user = get_user_model().objects.create_user(username=f"bench-{time.time_ns()}", password="bench-password-x1")
    league = league_create(name=f"Bench recording {time.time_ns()}", by=user)
    people = [player_create(name=f"Recorder {n}", by=user, league=league) for n in range(4)]
    seats = {seat: person.pk for seat, person in zip("NESW", people, strict=True)}
    games = [game_start(game_type="spades", seats=seats, by=user, league=league,
                        options={"target": 1_000_000, "lose_at": None}).pk for _ in range(clients)]
    return Token.objects.get_or_create(user=user)[0].key, games


class Recorder:
    """One client recording hands into one game, numbering them itself."""

    def __init__(self, api: Api, game_id: int, seed: int):
        from games.rules import random_hand

        self.api, self.game_id, self.rng = api, game_id, random.Random(seed)
        self.random_hand = random_hand
        self.number = 0

    def one(self) -> tuple[bool, float]:
        self.number += 1
        body = {**self.random_hand("spades", self.rng), "expected_number": self.number}
        reply = self.api.post(f"/api/v1/games/{self.game_id}/hands/", body,
                              {"Idempotency-Key": f"bench-{self.game_id}-{self.number}"})
        if reply.status != 201:
            self.number -= 1
        return reply.status == 201, reply.seconds


class Inserter:
    def __init__(self, api: Api, seed: int):
        self.api, self.rng = api, random.Random(seed)

    def one(self) -> tuple[bool, float]:
        reply = self.api.post("/bench/insert/", {"value": self.rng.randint(0, 10**6)})
        return reply.status == 201, reply.seconds


def run_level(target: str, makers: list, *, seconds: float, max_requests: int, meter: CpuMeter | None = None) -> Level:
    """Every maker's ``one()`` in its own thread, all at once, until the time or the count runs out."""
    latencies: list[float] = []
    counts = {"requests": 0, "errors": 0}
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def loop(maker) -> None:
        while time.perf_counter() < stop_at:
            with lock:
                if counts["requests"] >= max_requests:
                    return
                counts["requests"] += 1
            ok, latency = maker.one()
            with lock:
                latencies.append(latency)
                counts["errors"] += not ok

    threads = [threading.Thread(target=loop, args=(maker,), daemon=True) for maker in makers]
    before = meter.snapshot() if meter else None
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - started
    cpu = CpuMeter.spent(before, meter.snapshot()) if meter and before else (0.0, 0.0, 0.0)
    return Level(target, len(makers), counts["requests"], counts["errors"], elapsed, latencies, cpu)


def merged(levels: list[Level]) -> Level:
    """Rounds of one level as one: their requests, errors, time, latencies and CPU added up."""
    first = levels[0]
    return Level(first.target, first.clients, sum(level.requests for level in levels),
                 sum(level.errors for level in levels), sum(level.seconds for level in levels),
                 [latency for level in levels for latency in level.latencies],
                 (sum(level.cpu[0] for level in levels), sum(level.cpu[1] for level in levels),
                  sum(level.cpu[2] for level in levels)))


def run(base_url: str, *, seconds: float = 8.0, max_requests: int = 5000, levels=LEVELS,
        rounds: int = 8, meter: CpuMeter | None = None) -> list[dict[str, Any]]:
    """Each level's hands and minimal inserts, in ``rounds`` alternating turns of ``seconds / rounds``:
    on a shared machine, whatever else runs meanwhile weighs on both alike."""
    token, games = bench_fixtures(max(levels))
    api = Api(base_url, token=token)
    recorders = [Recorder(api, game, seed) for seed, game in enumerate(games)]
    inserters = [Inserter(api, seed) for seed in range(max(levels))]
    # Warm up every gunicorn worker (imports, connections) on both paths before timing.
    run_level("warm-up", recorders[:4], seconds=2, max_requests=40)
    run_level("warm-up", inserters[:4], seconds=2, max_requests=40)
    rows = []
    for clients in levels:
        hands, inserts = [], []
        for _ in range(rounds):
            hands.append(run_level("record a hand", recorders[:clients], seconds=seconds / rounds,
                                   max_requests=max_requests // rounds, meter=meter))
            inserts.append(run_level("minimal DRF insert", inserters[:clients], seconds=seconds / rounds,
                                     max_requests=max_requests // rounds, meter=meter))
        hand_row, insert_row = merged(hands).row(), merged(inserts).row()
        hand_row["overhead"] = (insert_row["per_second"] / hand_row["per_second"]) if hand_row["per_second"] else None
        rows += [hand_row, insert_row]
    return rows

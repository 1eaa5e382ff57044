"""The load test and the fault scenarios, each on its own fresh stack.

Each scenario returns a :class:`Outcome`: what happened (counts, timings, notes) and
``failures``, the broken promises. An empty ``failures`` is a pass; ``tests/load`` asserts it
and ``python -m loadtest`` prints it.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import stack as services
from .client import Api
from .tables import FULL_TARGETS, SHORT_TARGETS, Mischief, Table, play_all, start_games, summary


@dataclass
class Size:
    """How big a run is. ``ci()`` fits a couple of minutes on two cores; ``full()`` is ``make load``."""

    tables: int
    targets: dict[str, int]
    max_hands: int = 60
    seconds: float = 240  # the deadline for every table to finish its game
    players: int = 40
    pause: float = 0.3  # at most this long between a table's hands (uniformly), so faults land mid-game
    seed: int = 7
    mischief: Mischief = field(default_factory=Mischief)

    @classmethod
    def ci(cls, tables: int = 12) -> Size:
        return cls(tables=tables, targets=SHORT_TARGETS, max_hands=100, seconds=150, players=24, pause=0.6)

    @classmethod
    def full(cls, tables: int = 50) -> Size:
        return cls(tables=tables, targets=FULL_TARGETS, max_hands=150, seconds=600, players=120, pause=1.0)


@dataclass
class Outcome:
    scenario: str
    facts: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def report(self) -> str:
        lines = [f"== {self.scenario}: {'ok' if not self.failures else 'FAILED'} in {self.seconds:.1f} s"]
        lines += [f"   {key}: {value}" for key, value in self.facts.items()]
        lines += [f"   note: {note}" for note in self.notes]
        lines += [f"   FAIL: {failure}" for failure in self.failures[:30]]
        if len(self.failures) > 30:
            lines.append(f"   ... and {len(self.failures) - 30} more failures")
        return "\n".join(lines)


class Template:
    """A migrated database to clone: migrations run once per session, not once per scenario."""

    def __init__(self, postgres: services.Postgres, workdir: Path):
        self.postgres = postgres
        self.name = f"scorekeeper_load_template_{random.randrange(16**6):06x}"
        services.migrate(postgres.create(self.name), workdir / "migrate.log")

    def drop(self) -> None:
        self.postgres.drop(self.name)


class Stack:
    """A fresh database, gunicorn and a Celery worker (and a private Redis if asked) for one scenario."""

    def __init__(self, *, postgres: services.Postgres, template: Template, redis_url: str | None, workdir: Path,
                 name: str, players: int = 40, private_redis: bool = False, private_postgres: bool = False,
                 web_workers: int | None = None):
        self.postgres, self.template, self.workdir, self.name = postgres, template, workdir, name
        self.private_redis, self.shared_redis_url, self.web_workers = private_redis, redis_url, web_workers
        self.private_postgres, self.players = private_postgres, players
        self.database = f"scorekeeper_load_{name}_{random.randrange(16**6):06x}"
        self.postgres_server: services.PostgresServer | None = None
        self.redis: services.Process | None = None
        self.server: services.Process | None = None
        self.worker: services.Process | None = None

    def __enter__(self) -> Stack:
        try:
            if self.private_postgres:
                # A server of the scenario's own, which it may restart; migrated here, as it has no template.
                self.postgres_server = services.PostgresServer()
                self.postgres = services.Postgres(self.postgres_server.url)
                self.template = Template(self.postgres, self.workdir)
            self.database_url = self.postgres.create(self.database, template=self.template.name)
            if self.private_redis:
                self.redis = services.redis_server(log=self.log("redis"))
                self.redis_url = self.redis.url
            else:
                if not self.shared_redis_url:
                    raise services.StackError("the load test needs Redis (REDIS_URL)")
                self.redis_url = self.shared_redis_url
                services.redis_flush(self.redis_url)
            self.env = services.app_env(database_url=self.database_url, redis_url=self.redis_url)
            self.setup = self.dbtool("setup", "--players", str(self.players))
            self.server = services.gunicorn(env=self.env, log=self.log("gunicorn"), workers=self.web_workers)
            self.start_worker()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        self.api = Api(self.server.url, token=self.setup["token"])
        return self

    def __exit__(self, *exc_info) -> None:
        for process in (self.server, self.worker, self.redis):
            if process is not None:
                process.stop()
        try:
            self.postgres.drop(self.database)
        except Exception:  # noqa: BLE001 - leave a stray database rather than hide the real error
            pass
        if self.postgres_server is not None:
            self.postgres_server.close()

    def log(self, what: str) -> Path:
        return self.workdir / f"{self.name}-{what}.log"

    def start_worker(self) -> services.Process:
        self.worker = services.celery_worker(env=self.env, log=self.log("worker"))
        return self.worker

    def dbtool(self, *args: str, timeout: float = 120) -> dict[str, Any]:
        result = subprocess.run([services.PYTHON, "-m", "loadtest.dbtool", *args], cwd=services.ROOT, env=self.env,
                                capture_output=True, text=True, timeout=timeout, check=False)
        if result.returncode:
            raise services.StackError(f"dbtool {' '.join(args)} failed:\n{result.stderr[-3000:]}")
        return json.loads(result.stdout)

    @property
    def league_id(self) -> int:
        return self.setup["league_id"]

    def standings(self) -> dict[str, Any]:
        return self.dbtool("standings", str(self.league_id))

    def wait_converged(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            answer = self.standings()
            if answer["converged"] or time.monotonic() > deadline:
                return answer
            time.sleep(1.0)


# --- checks ---------------------------------------------------------------------------------------------


def check_games(stack: Stack, tables: list[Table]) -> list[str]:
    """Every game holds exactly the hands its table was told were stored, and its totals equal a replay."""
    found = stack.dbtool("games", *(str(table.game_id) for table in tables))
    failures = [f"game {game_id} is missing" for game_id in found["missing"]]
    for table in tables:
        stored = found["games"].get(str(table.game_id))
        if stored is None:
            continue
        if stored["records"] != table.accepted:
            sent, kept = table.accepted, stored["records"]
            first = next((n for n, (a, b) in enumerate(zip(sent, kept, strict=False), 1) if a != b),
                         min(len(sent), len(kept)) + 1)
            failures.append(f"game {table.game_id}: {len(kept)} hands stored, {len(sent)} acknowledged; "
                            f"they differ from hand {first}")
        failures += [f"game {table.game_id}: {problem}" for problem in stored["problems"]]
        if table.finished != (stored["status"] == "finished"):
            failures.append(f"game {table.game_id}: the table saw finished={table.finished}, "
                            f"the database has {stored['status']}")
    return failures


def run_tables(stack: Stack, size: Size, *, during=None) -> tuple[list[Table], dict[str, Any]]:
    """Start every table's game, play them all at once, and run ``during(tables)`` beside them."""
    rng = random.Random(size.seed)
    players = stack.setup["players"]
    tables = start_games(stack.api, tables=size.tables, league_id=stack.league_id, players=players,
                         targets=size.targets, rng=rng)
    deadline = time.monotonic() + size.seconds
    extra: dict[str, Any] = {}
    side = None
    if during is not None:
        side = threading.Thread(target=lambda: extra.update(during(tables) or {}), daemon=True)
        side.start()
    started = time.perf_counter()
    play_all(stack.api, tables, seed=size.seed, mischief=size.mischief, deadline=deadline,
             max_hands=size.max_hands, run=stack.name, pause=size.pause)
    elapsed = time.perf_counter() - started
    if side is not None:
        side.join(timeout=120)
    facts = summary(tables)
    facts["play_seconds"] = round(elapsed, 1)
    facts["hands_per_second"] = round(facts["hands"] / elapsed, 1) if elapsed else 0
    facts.update(extra)
    return tables, facts


def wait_until(condition, timeout: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def hands_so_far(tables: list[Table]) -> int:
    return sum(len(table.accepted) for table in tables)


def finished_so_far(tables: list[Table]) -> int:
    return sum(table.finished for table in tables)


def converge(stack: Stack, outcome: Outcome, *, timeout: float) -> None:
    """Standings equal a from-scratch recompute, with nobody queueing anything by hand and no celery beat:
    by the worker alone (it catches up whenever it connects to the broker, scorekeeper/celery.py)."""
    answer = stack.wait_converged(timeout)
    outcome.facts["standing_rows"] = answer["standing_rows"]
    outcome.facts["finished_games_in_league"] = answer["finished_games"]
    outcome.facts["standings_converged"] = answer["converged"]
    if not answer["converged"]:
        outcome.failures.append(f"standings did not converge: {answer['differences']}")


# --- the scenarios -------------------------------------------------------------------------------------


def scenario(name: str):
    def wrap(function):
        def run(stack_factory, size: Size) -> Outcome:
            outcome = Outcome(name)
            started = time.perf_counter()
            try:
                function(stack_factory, size, outcome)
            finally:
                outcome.seconds = time.perf_counter() - started
            return outcome

        run.__name__ = function.__name__
        run.__doc__ = function.__doc__
        return run

    return wrap


@scenario("load")
def load(stack_factory, size: Size, outcome: Outcome) -> None:
    """Every table records a full game at once, with retries, duplicates and races: nothing lost or doubled,
    totals equal a replay, no 5xx, and the worker's standings equal a recompute."""
    with stack_factory("load", players=size.players) as stack:
        tables, facts = run_tables(stack, size)
        outcome.facts.update(facts)
        outcome.failures += [f"5xx or no answer: {error}" for t in tables for error in t.server_errors]
        outcome.failures += facts["problems"]
        outcome.failures += [f"table {t.number} (game {t.game_id}) did not finish" for t in tables if not t.finished]
        outcome.failures += check_games(stack, tables)
        converge(stack, outcome, timeout=60)


@scenario("worker killed")
def worker_killed(stack_factory, size: Size, outcome: Outcome) -> None:
    """The Celery worker is SIGKILLed mid-run (with tasks queued and running) and restarted: the standings
    converge to a from-scratch recompute."""
    with stack_factory("worker", players=size.players) as stack:
        def kill_and_restart(tables: list[Table]) -> dict[str, Any]:
            wait_until(lambda: finished_so_far(tables) >= max(1, len(tables) // 3), timeout=size.seconds / 2)
            at = finished_so_far(tables)
            stack.worker.kill()
            time.sleep(1.5)  # games keep finishing with nobody to update the standings
            stack.start_worker()
            return {"worker_killed_after_games": at}

        tables, facts = run_tables(stack, size, during=kill_and_restart)
        outcome.facts.update(facts)
        outcome.failures += [f"5xx or no answer: {error}" for t in tables for error in t.server_errors]
        outcome.failures += facts["problems"]
        outcome.failures += check_games(stack, tables)
        converge(stack, outcome, timeout=60)


@scenario("database connections dropped")
def database_dropped(stack_factory, size: Size, outcome: Outcome) -> None:
    """Connections are terminated (pg_terminate_backend) while requests are in them: each hand is stored whole
    or not at all, and the table's retry with the same key stores it exactly once."""
    with stack_factory("dbdrop", players=size.players) as stack:
        def drop_connections(tables: list[Table]) -> dict[str, Any]:
            rng = random.Random(size.seed)
            killed = rounds = 0
            stop_at = time.monotonic() + size.seconds
            # Stop while some hands are still to come, so every table ends on a quiet database.
            while time.monotonic() < stop_at and finished_so_far(tables) < len(tables) * 3 // 4:
                killed += stack.postgres.terminate(stack.database, busy_only=True)
                rounds += 1
                time.sleep(0.02 + rng.random() * 0.1)
            return {"connections_terminated": killed, "terminate_rounds": rounds}

        tables, facts = run_tables(stack, size, during=drop_connections)
        outcome.facts.update(facts)
        outcome.facts["requests_failed_by_the_fault"] = facts.pop("server_errors")
        outcome.failures += facts["problems"]
        outcome.failures += [f"table {t.number} (game {t.game_id}) did not finish" for t in tables if not t.finished]
        outcome.failures += check_games(stack, tables)
        if facts["connections_terminated"] == 0:
            outcome.failures.append("no connection was terminated mid-request; the fault did not happen")
        outcome.notes.append(f"{facts['recovered']} hands failed at first and were stored once by a retry")
        idle_connection_probe(stack, outcome)


def idle_connection_probe(stack: Stack, outcome: Outcome) -> None:
    """What a request meets after its worker's idle, persistent connection was dropped (a database restart)."""
    for _ in range(10):  # every gunicorn worker opens its connection
        stack.api.get(f"/api/v1/leagues/{stack.league_id}/")
    dropped = stack.postgres.terminate(stack.database, busy_only=False)
    replies = [stack.api.get(f"/api/v1/leagues/{stack.league_id}/") for _ in range(20)]
    errors = sum(reply.failed for reply in replies)
    outcome.facts["idle_connections_dropped"] = dropped
    outcome.facts["reads_failed_after_idle_drop"] = errors
    if errors:
        outcome.notes.append(f"after {dropped} idle connections were dropped, {errors} of the next 20 reads got "
                             "a 5xx: Django reuses a persistent connection without checking it "
                             "(CONN_MAX_AGE=60 without CONN_HEALTH_CHECKS)")


@scenario("redis down")
def redis_down(stack_factory, size: Size, outcome: Outcome) -> None:
    """Redis (broker and cache) stops mid-run and stays down until every game has finished: hands are still
    recorded, with no 5xx; when it returns, the standings converge with no celery beat and no later result
    to bring them up to date (the worker catches up when it reconnects)."""
    with stack_factory("redis", players=size.players, private_redis=True) as stack:
        def outage(tables: list[Table]) -> dict[str, Any]:
            wait_until(lambda: finished_so_far(tables) >= max(1, len(tables) // 4), timeout=size.seconds / 2)
            before = finished_so_far(tables)
            hands_before = hands_so_far(tables)
            stack.redis.stop()
            down_at = time.monotonic()
            # Down until every game has finished: the standings updates of those finished meanwhile cannot
            # be queued, and no later result will come to queue one.
            wait_until(lambda: finished_so_far(tables) >= len(tables), timeout=size.seconds)
            wait_until(lambda: time.monotonic() - down_at > 3, timeout=5)
            health = stack.api.get("/healthz")
            outage_games = finished_so_far(tables) - before
            outage_hands = hands_so_far(tables) - hands_before
            port = stack.redis.port
            stack.redis = services.redis_server(log=stack.log("redis"), port=port)
            # A worker that gave up on the broker is started again, as its supervisor (systemd, Kubernetes) would.
            worker_died = wait_until(lambda: not stack.worker.running, timeout=3)
            if worker_died:
                stack.start_worker()
            return {"worker_exited_while_redis_was_down": worker_died,
                    "redis_down_seconds": round(time.monotonic() - down_at, 1),
                    "games_finished_while_down": outage_games, "hands_recorded_while_down": outage_hands,
                    "healthz_while_down": f"{health.status} {health.body}"}

        tables, facts = run_tables(stack, size, during=outage)
        outcome.facts.update(facts)
        outcome.failures += [f"5xx or no answer: {error}" for t in tables for error in t.server_errors]
        outcome.failures += facts["problems"]
        outcome.failures += [f"table {t.number} (game {t.game_id}) did not finish" for t in tables if not t.finished]
        outcome.failures += check_games(stack, tables)
        if facts.get("hands_recorded_while_down", 0) == 0:
            outcome.failures.append("no hand was recorded while Redis was down")
        if facts.get("worker_exited_while_redis_was_down"):
            outcome.notes.append("the Celery worker exited when Redis went away (it did not wait to reconnect); "
                                 "it was started again as a supervisor would")
        if facts["max_latency"] > SLOW_REQUEST:
            outcome.failures.append(f"a request took {facts['max_latency']} s while Redis was down: queueing the "
                                    "standings update must give up quickly (games/tasks.py)")
        if not str(facts.get("healthz_while_down", "")).startswith("503"):
            outcome.failures.append(f"/healthz did not report Redis down: {facts.get('healthz_while_down')}")
        converge(stack, outcome, timeout=60)


# No request should wait this long on a broker that is down (the settings allow about 2.5 s).
SLOW_REQUEST = 8.0

SCENARIOS = {"load": load, "worker": worker_killed, "database": database_dropped, "redis": redis_down}

"""Where one request's time goes: recording a hand beside the minimal insert, part by part.

Run in the benchmark's own process (``bench/run.py``), against the bench database, through Django's test
client: the same middleware, authentication, views and statements as in gunicorn, without the network and
the HTTP server, one request at a time. Each request's wall time is split into

- each SQL statement, named by what it does (its round trip and the database's work on it, as this
  process waits for it): the token; for a hand, the BEGIN with the locked read (one wait), then the hand,
  the game's totals, the key's answer and the COMMIT (sent together, in psycopg's pipeline mode: one wait
  for them all); for the baseline, the INSERT and the commit (psycopg's BEGIN goes on its own, before the
  INSERT);
- the Python around them, in parts timed by wrapping a few functions in this process only: the token
  authentication (its statement aside), the body's checks, the rules engine, building the answer's
  JSON (DRF's renderer), and the rest (middleware, routing, the views, the services' own work).

The two endpoints take turns, so that whatever else the machine runs weighs on both alike.
"""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

STATEMENTS = (  # (part, how its SQL starts or what it holds), first match wins
    ("SQL: the token", "authtoken_token"),
    ("SQL: BEGIN and the game locked, with league, webhooks and role (sent together)", "games_membership"),
    (TOGETHER := "SQL: the hand, the game's totals, the key's answer and COMMIT (sent together)",
     'INSERT INTO "games_hand"'),
    (TOGETHER, 'UPDATE "games_game"'),
    (TOGETHER, 'INSERT INTO "games_idempotencyrecord"'),
    ("SQL: webhooks of the league (after commit)", "games_webhookendpoint"),
    ("SQL: the row", "INSERT INTO bench_insert"),
)
PYTHON = (  # (part, module, attribute path): functions whose own time (their SQL aside) is a part
    ("Python: token authentication", "rest_framework.authentication", "TokenAuthentication.authenticate"),
    ("Python: the body checked (serializer)", "api.views.base", "ApiView.parse"),
    ("Python: the rules engine", "games.rules.base", "Ruleset.play"),
    ("Python: the answer's JSON", "rest_framework.renderers", "JSONRenderer.render"),
)
OTHER = "Python: the rest (middleware, routing, views, services)"
TRANSACTION = "SQL: the commit"


class Clock:
    """Time spent in each part during the requests measured, with SQL time taken out of the Python parts."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.open: list[list[Any]] = []  # Python parts being timed: [part, started, SQL time inside]
        self.last = "SQL: other"  # the part of the last statement sent

    def statement(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - started
            self.last = part_of(sql)
            self.spent[self.last] += took
            for frame in self.open:
                frame[2] += took

    def wrap_answers(self, function: Callable) -> Callable:
        """The end of a pipeline (statements sent together): waiting for their answers, counted with the last
        statement sent."""
        clock = self

        def timed(*args, **kwargs):
            return clock.statement(lambda *_: function(*args, **kwargs), clock.last, None, False, None)

        return timed

    def wrap_sql(self, part: str, function: Callable) -> Callable:
        """A database call that is not a statement (the commit), timed as one."""
        clock = self

        def timed(*args, **kwargs):
            return clock.statement(lambda *_: function(*args, **kwargs), part, None, False, None)

        return timed

    def wrap(self, part: str, function: Callable) -> Callable:
        clock = self

        def timed(*args, **kwargs):
            frame: list[Any] = [part, time.perf_counter(), 0.0]
            clock.open.append(frame)
            try:
                return function(*args, **kwargs)
            finally:
                clock.open.pop()
                own = time.perf_counter() - frame[1]
                clock.spent[part] += own - frame[2]
                for outer in clock.open:  # an outer Python part does not count this one again
                    outer[2] += own - frame[2]

        return timed


def part_of(sql: str) -> str:
    if sql == TRANSACTION or sql.startswith("SQL: "):  # a part already named
        return sql
    for part, mark in STATEMENTS:
        if mark in sql:
            return part
    if sql.startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")):
        return TRANSACTION
    return "SQL: other"


@contextmanager
def instrumented(clock: Clock) -> Iterator[None]:
    """The Python parts wrapped, and every statement timed, for as long as the block runs."""
    import importlib

    from django.db import connection

    undo = []
    for part, module_name, path in PYTHON:
        owner: Any = importlib.import_module(module_name)
        *outer, name = path.split(".")
        for attribute in outer:
            owner = getattr(owner, attribute)
        original = owner.__dict__[name]
        setattr(owner, name, clock.wrap(part, original))
        undo.append((owner, name, original))
    import psycopg
    from django.db import connections

    pipeline_exit = psycopg.Pipeline.__exit__
    # (type: ignore: the profile swaps the method for a timed one for the run, and puts it back after.)
    psycopg.Pipeline.__exit__ = clock.wrap_answers(pipeline_exit)  # type: ignore[method-assign]
    undo.append((psycopg.Pipeline, "__exit__", pipeline_exit))
    database = connections["default"]
    database._commit = clock.wrap_sql(TRANSACTION, database._commit)
    undo.append((database, "_commit", None))
    try:
        with connection.execute_wrapper(clock.statement):
            yield
    finally:
        for owner, name, original in undo:
            if original is None:
                delattr(owner, name)  # the connection's own method again
            else:
                setattr(owner, name, original)


def run(requests: int = 400, rounds: int = 8) -> list[dict[str, Any]]:
    """Per endpoint, the mean milliseconds a request spends in each part (and in all), over ``requests``."""
    from django.db import connection
    from django.test import Client

    from bench.recording import bench_fixtures
    from games.rules import random_hand

    token, [game] = bench_fixtures(1)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    rng = random.Random(11)
    number = 0

    def record() -> None:
        nonlocal number
        number += 1
        body = {**random_hand("spades", rng), "expected_number": number}
        reply = client.post(f"/api/v1/games/{game}/hands/", json.dumps(body), content_type="application/json",
                            HTTP_IDEMPOTENCY_KEY=f"profile-{game}-{number}")
        assert reply.status_code == 201, reply.content

    def insert() -> None:
        reply = client.post("/bench/insert/", json.dumps({"value": rng.randint(0, 10**6)}),
                            content_type="application/json")
        assert reply.status_code == 201, reply.content

    for _ in range(20):  # warm: imports, the statements' plans, the connection
        record()
        insert()
    clocks = {"record a hand": Clock(), "minimal DRF insert": Clock()}
    totals: dict[str, float] = defaultdict(float)
    per_round = max(1, requests // rounds)
    for _ in range(rounds):
        for target, request in (("record a hand", record), ("minimal DRF insert", insert)):
            clock = clocks[target]
            with instrumented(clock):
                started = time.perf_counter()
                for _ in range(per_round):
                    request()
                totals[target] += time.perf_counter() - started
    connection.close()
    done = per_round * rounds
    out = []
    for target, clock in clocks.items():
        parts = {part: 1000 * seconds / done for part, seconds in clock.spent.items()}
        parts[OTHER] = 1000 * totals[target] / done - sum(parts.values())
        out.append({"target": target, "requests": done, "total_ms": 1000 * totals[target] / done, "parts": parts})
    return out


def rows(profile: list[dict[str, Any]]) -> list[list[str]]:
    """One row per part: the mean ms a request spends in it for each endpoint, and the difference."""
    by_target = {entry["target"]: entry for entry in profile}
    hand, insert = by_target["record a hand"], by_target["minimal DRF insert"]
    order = dict.fromkeys([part for part, _ in STATEMENTS] + [TRANSACTION, "SQL: other"]
                          + [part for part, *_ in PYTHON] + [OTHER])
    out = []
    for part in order:
        mine, theirs = hand["parts"].get(part, 0.0), insert["parts"].get(part, 0.0)
        if mine or theirs:
            out.append([part, f"{mine:.3f}", f"{theirs:.3f}", f"{mine - theirs:+.3f}"])
    out.append(["all of it", f"{hand['total_ms']:.3f}", f"{insert['total_ms']:.3f}",
                f"{hand['total_ms'] - insert['total_ms']:+.3f} ({hand['total_ms'] / insert['total_ms']:.2f}x)"])
    return out

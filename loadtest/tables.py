"""Simulated card tables: each records one game through the API, the way a scorekeeper's phone does.

A table sends every hand with ``expected_number`` and an ``Idempotency-Key``, and keeps a ledger
of the hands the server accepted. Now and then it misbehaves the way real phones do:

- *retry*: the answer was "lost", so the same request (same key) is sent again: it must get the
  same answer and store nothing;
- *duplicate*: a double tap sends the same hand again under a new key: the stale
  ``expected_number`` must make it a 409 that stores nothing;
- *race*: two phones send the same request (same key) at the same moment: one hand is stored, and the
  second, waiting for the first, gets the same answer.

A request with no answer or a 5xx (a 503 while the database is away) is retried with the same key,
which is what the key is for. Every loop is bounded in time and count.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.rules import random_hand

from .client import Api, Reply

# Targets that end a game of random hands in a handful of hands (Smudge's random hands drift most).
SHORT_TARGETS = {"spades": 150, "smudge": 4, "trumps": 10, "thieving_stink": 200}
FULL_TARGETS = {"spades": 300, "smudge": 7, "trumps": 20, "thieving_stink": 300}
# The games the tables play: those with targets above.
GAME_TYPES = tuple(SHORT_TARGETS)


@dataclass
class Mischief:
    retry: float = 0.15
    duplicate: float = 0.10
    race: float = 0.10


@dataclass
class Table:
    number: int
    game_id: int
    game_type: str
    accepted: list[dict] = field(default_factory=list)  # the records the server said it stored, in order
    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)  # 5xx and unanswered requests
    problems: list[str] = field(default_factory=list)  # answers that break a promise of the API
    latencies: list[float] = field(default_factory=list)
    # Every request: when it was sent and when its answer came (time.monotonic()), its status and Content-Type.
    answers: list[tuple[float, float, int, str]] = field(default_factory=list)
    finished: bool = False
    retries: int = 0
    duplicates: int = 0
    races: int = 0
    recovered: int = 0  # hands whose first try failed (no answer or 5xx) and a retry stored once


def start_games(api: Api, *, tables: int, league_id: int, players: list[int], targets: dict[str, int],
                rng: random.Random) -> list[Table]:
    """Start one game per table (a mix of the four games), before any load begins."""
    made = []
    for number in range(tables):
        game_type = GAME_TYPES[number % len(GAME_TYPES)]
        seated = rng.sample(players, 4)
        body = {"game_type": game_type, "league": league_id, "seats": dict(zip("NESW", seated, strict=True)),
                "options": {"target": targets[game_type]}, "first_dealer": rng.choice("NESW")}
        reply = api.post("/api/v1/games/", body)
        if reply.status != 201:
            raise RuntimeError(f"could not start a game for table {number}: {reply.status} {reply.body}")
        made.append(Table(number=number, game_id=reply.body["id"], game_type=game_type))
    return made


class Player:
    """Plays one table's game to its end (or to ``max_hands``, or the deadline)."""

    def __init__(self, api: Api, table: Table, *, seed: int, mischief: Mischief, deadline: float,
                 max_hands: int = 60, run: str = "load", pause: float = 0.0):
        self.api, self.table, self.mischief, self.pause = api, table, mischief, pause
        self.rng = random.Random(seed)
        self.deadline, self.max_hands, self.run = deadline, max_hands, run
        self.path = f"/api/v1/games/{table.game_id}/hands/"

    def note(self, reply: Reply, what: str) -> None:
        self.table.statuses[reply.status] += 1
        self.table.latencies.append(reply.seconds)
        self.table.answers.append((reply.sent_at, reply.sent_at + reply.seconds, reply.status,
                                   reply.headers.get("content-type", "")))
        if reply.failed:
            self.table.server_errors.append(f"{what}: {reply.status} {str(reply.body)[:200]}")

    def send(self, body: dict, key: str, what: str) -> Reply:
        return self.api.post(self.path, body, {"Idempotency-Key": key})

    def submit(self, body: dict, key: str, what: str, *, first: Reply | None = None) -> Reply:
        """Send until there is an answer that is not "try again"; retries reuse the key."""
        reply = first
        failed_before = False
        for _ in range(200):
            if reply is None:
                reply = self.send(body, key, what)
                self.note(reply, what)
            if reply.failed:
                failed_before = True
            else:
                if failed_before and reply.status == 201:
                    self.table.recovered += 1
                return reply
            if time.monotonic() > self.deadline:
                return reply
            time.sleep(0.05 + self.rng.random() * 0.2)
            last, reply = reply, None
        return last  # 200 tries, all refused: the last refusal

    def race(self, body: dict, key: str, what: str) -> Reply:
        """Two phones send the same request at once."""
        answers: list[Reply] = []

        def one() -> None:
            answers.append(self.send(body, key, what))

        other = threading.Thread(target=one)
        other.start()
        one()
        other.join(timeout=60)
        for reply in answers:
            self.note(reply, what)
        created = [reply for reply in answers if reply.status == 201]
        for reply in answers:
            # The second waits for the first (on the game's row lock) and gets its answer.
            if reply.status != 201 and not reply.failed:
                self.table.problems.append(f"{what}: a racing request got {reply.status} {reply.body}")
        if len(created) == 2 and created[0].body != created[1].body:
            self.table.problems.append(f"{what}: two racing requests with one key got different answers")
        # Settle it the way a phone would: send again until there is a definite answer.
        return created[0] if created else self.submit(body, key, what)

    def play(self) -> Table:
        table = self.table
        number = 1
        fresh = 0
        while number <= self.max_hands and time.monotonic() < self.deadline:
            time.sleep(self.rng.uniform(0, self.pause))  # the hand is being played
            record = random_hand(table.game_type, self.rng)
            body = {**record, "expected_number": number}
            fresh += 1
            key = f"{self.run}-{table.game_id}-{number}-{fresh}"
            what = f"game {table.game_id} hand {number}"
            if self.rng.random() < self.mischief.race:
                table.races += 1
                reply = self.race(body, key, what)
            else:
                reply = self.submit(body, key, what)
            if reply is None or reply.failed or reply.status == 409:
                table.problems.append(f"{what}: no definite answer before the deadline ({reply and reply.status})")
                break
            if reply.status == 400 and reply.code == "invalid_hand":
                continue  # a random hand the game does not allow here; deal another
            if reply.status != 201:
                table.problems.append(f"{what}: {reply.status} {reply.body}")
                break
            if reply.body.get("number") != number:
                table.problems.append(f"{what}: stored as hand {reply.body.get('number')}")
                break
            table.accepted.append(record)
            self.misbehave(body, key, what, reply)
            if reply.body.get("status") == "finished":
                table.finished = True
                break
            number += 1
        return table

    def misbehave(self, body: dict, key: str, what: str, stored: Reply) -> None:
        if self.rng.random() < self.mischief.retry:
            self.table.retries += 1
            again = self.submit(body, key, what + " (retry)")
            if again.status != 201 or again.body != stored.body:
                self.table.problems.append(f"{what}: a retry with the same key got {again.status} "
                                           f"{again.body}, not the first answer {stored.body}")
        if self.rng.random() < self.mischief.duplicate:
            self.table.duplicates += 1
            again = self.submit(body, key + "-double-tap", what + " (duplicate)")
            if again.status != 409 or again.code != "hand_conflict":
                self.table.problems.append(f"{what}: a duplicate under a new key got {again.status} {again.body}")


def play_all(api: Api, tables: list[Table], *, seed: int, mischief: Mischief, deadline: float,
             max_hands: int = 60, run: str = "load", pause: float = 0.0) -> list[Table]:
    """Every table at once, one thread each."""
    threads = []
    for table in tables:
        player = Player(api, table, seed=seed * 1000 + table.number, mischief=mischief, deadline=deadline,
                        max_hands=max_hands, run=run, pause=pause)
        threads.append(threading.Thread(target=player.play, name=f"table-{table.number}", daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic() + 120))
    return tables


def summary(tables: list[Table]) -> dict[str, Any]:
    statuses: Counter = Counter()
    for table in tables:
        statuses.update(table.statuses)
    latencies = [value for table in tables for value in table.latencies]
    return {
        "tables": len(tables),
        "finished": sum(table.finished for table in tables),
        "hands": sum(len(table.accepted) for table in tables),
        "requests": sum(statuses.values()),
        "statuses": dict(sorted(statuses.items())),
        "retries": sum(table.retries for table in tables),
        "duplicates": sum(table.duplicates for table in tables),
        "races": sum(table.races for table in tables),
        "recovered": sum(table.recovered for table in tables),
        "server_errors": sum(len(table.server_errors) for table in tables),
        "problems": [problem for table in tables for problem in table.problems],
        "max_latency": round(max(latencies, default=0.0), 3),
    }

"""The database restart: PostgreSQL is stopped (ending every session) while the tables record, kept down
for a moment, and started again.

Passes when every hand the server acknowledged is stored exactly once (and nothing else is), every
request the outage broke was answered with the API's JSON 503 (``Retry-After``) rather than an HTML
page, no request sent once the database accepts connections again fails, every table's retry (same
Idempotency-Key) that goes through is sent within a second of that, and the standings converge.
"""

from __future__ import annotations

import time
from typing import Any

from .scenarios import (
    Outcome,
    Size,
    check_games,
    converge,
    finished_so_far,
    run_tables,
    scenario,
    wait_until,
)
from .tables import Table

# How long the database stays down, and how soon after it is back a table's retry must go through.
DOWN_SECONDS = 2.0
BACK_WITHIN = 1.0


def failed(status: int) -> bool:
    return status == 0 or status >= 500


def met_the_outage(table: Table, down: float, back: float) -> list[tuple[float, float, int, str]]:
    """The table's requests that failed while the database was away (sent before it was back)."""
    return [answer for answer in table.answers if down <= answer[1] and answer[0] < back and failed(answer[2])]


def failed_after(table: Table, back: float) -> list[tuple[float, float, int, str]]:
    """Requests sent once the database was back that still failed: there must be none."""
    return [answer for answer in table.answers if answer[0] >= back and failed(answer[2])]


def first_success_sent_after(table: Table, moment: float) -> tuple[float, float] | None:
    """(sent, answered) of the table's first request after ``moment`` that went through."""
    return next(((sent, answered) for sent, answered, status, _ in table.answers
                 if answered >= moment and not failed(status)), None)


@scenario("database restarted")
def database_restart(stack_factory, size: Size, outcome: Outcome) -> None:
    """PostgreSQL restarts mid-run: nothing acknowledged is lost or doubled, the outage is a JSON 503, and
    the tables' retries succeed within a second of the database being back."""
    with stack_factory("restart", players=size.players, private_postgres=True) as stack:
        moments: dict[str, float] = {}

        def restart(tables: list[Table]) -> dict[str, Any]:
            wait_until(lambda: finished_so_far(tables) >= max(1, len(tables) // 3), timeout=size.seconds / 2)
            moments["down"] = time.monotonic()
            stack.postgres_server.stop("fast")
            time.sleep(DOWN_SECONDS)
            stack.postgres_server.start()  # returns once the server accepts connections
            moments["back"] = time.monotonic()
            return {"games_finished_before_the_restart": finished_so_far(tables),
                    "restart_seconds": round(moments["back"] - moments["down"], 2)}

        tables, facts = run_tables(stack, size, during=restart)
        outcome.facts.update(facts)
        outcome.failures += facts["problems"]
        outcome.failures += [f"table {t.number} (game {t.game_id}) did not finish" for t in tables if not t.finished]
        outcome.failures += check_games(stack, tables)
        check_the_outage(outcome, tables, moments)
        converge(stack, outcome, timeout=60)


def check_the_outage(outcome: Outcome, tables: list[Table], moments: dict[str, float]) -> None:
    if "back" not in moments:
        outcome.failures.append("the database was not restarted (the games ended first)")
        return
    down, back = moments["down"], moments["back"]
    refused = {table.number: met_the_outage(table, down, back) for table in tables}
    answers = [answer for table_answers in refused.values() for answer in table_answers]
    outcome.facts["requests_refused_while_down"] = len(answers)
    if not answers:
        outcome.failures.append("no request met the outage: the restart did not happen while tables recorded")
    for _sent, _answered, status, kind in answers:
        if status != 503 or not kind.startswith("application/problem+json"):
            outcome.failures.append(f"during the outage a request got {status} {kind or 'with no body'}, "
                                    "not the API's JSON 503")
    for table in tables:
        outcome.failures += [f"table {table.number}: a request sent after the database was back got {status}"
                             for _sent, _answered, status, _ in failed_after(table, back)]
    # How soon each table that met the outage got through: the retry it sent (it retries every 0.05 to
    # 0.25 s), and the answer, which also waits its turn behind every other table's request.
    sent_delays, answered_delays = [], []
    for table in tables:
        if not refused[table.number]:
            continue
        # The first success after the table's last refused request: it may be answered just before
        # ``back`` is noted (the server already accepts connections when ``start`` returns).
        success = first_success_sent_after(table, max(answer[1] for answer in refused[table.number]))
        if success is None:
            outcome.failures.append(f"table {table.number} never recorded again after the restart")
            continue
        sent_delays.append(max(0.0, success[0] - back))
        answered_delays.append(success[1] - back)
    outcome.facts["slowest_retry_sent_after_back"] = round(max(sent_delays, default=0.0), 3)
    outcome.facts["slowest_recovery_seconds"] = round(max(answered_delays, default=0.0), 3)
    if sent_delays and max(sent_delays) > BACK_WITHIN:
        outcome.failures.append(f"a table's first successful retry was sent {max(sent_delays):.2f} s after the "
                                f"database was back (at most {BACK_WITHIN} s)")

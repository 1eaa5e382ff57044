"""The database restart: PostgreSQL is stopped (ending every session) while the tables record, kept down
for a moment, and started again.

Passes when every hand the server acknowledged is stored exactly once (and nothing else is), every
request the outage broke was answered with the API's JSON 503 (``Retry-After``) rather than an HTML
page, the tables' retries (same Idempotency-Key) succeed within a second of the database accepting
connections again, and the standings converge.
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

# How long the database stays down, and how soon after it is back every table must be recording again.
DOWN_SECONDS = 2.0
BACK_WITHIN = 1.0


def first_success_after(table: Table, moment: float) -> float | None:
    return next((at for at, status, _ in table.answers if at >= moment and 0 < status < 500), None)


def refused_while_down(table: Table, down: float, back: float) -> list[tuple[float, int, str]]:
    return [(at, status, kind) for at, status, kind in table.answers
            if down <= at <= back + 0.5 and (status >= 500 or status == 0)]


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
    refused = {table.number: refused_while_down(table, down, back) for table in tables}
    answers = [answer for table_answers in refused.values() for answer in table_answers]
    outcome.facts["requests_refused_while_down"] = len(answers)
    if not answers:
        outcome.failures.append("no request met the outage: the restart did not happen while tables recorded")
    for _at, status, kind in answers:
        if status != 503 or not kind.startswith("application/problem+json"):
            outcome.failures.append(f"during the outage a request got {status} {kind or 'with no body'}, "
                                    "not the API's JSON 503")
    delays = []
    for table in tables:
        if refused[table.number]:
            success = first_success_after(table, back)
            if success is None:
                outcome.failures.append(f"table {table.number} never recorded again after the restart")
                continue
            delays.append(success - back)
    outcome.facts["slowest_recovery_seconds"] = round(max(delays, default=0.0), 3)
    if delays and max(delays) > BACK_WITHIN:
        outcome.failures.append(f"a table's retry succeeded {max(delays):.2f} s after the database was back "
                                f"(at most {BACK_WITHIN} s)")

"""The load test, CI-sized: a dozen tables record whole games at once through gunicorn, PostgreSQL,
Redis and a Celery worker, with retries, double taps and races (``make load`` runs 50 tables)."""

from __future__ import annotations

from loadtest.scenarios import Size


def test_every_table_keeps_exactly_the_hands_it_sent_and_totals_equal_a_replay(load_session):
    outcome = load_session.run("load", Size.ci(tables=12))
    print(outcome.report())
    assert not outcome.failures, outcome.report()
    assert outcome.facts["finished"] == 12
    assert outcome.facts["retries"] and outcome.facts["duplicates"] and outcome.facts["races"]
    assert set(outcome.facts["statuses"]) <= {201, 409}

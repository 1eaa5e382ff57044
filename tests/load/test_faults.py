"""Faults under load, CI-sized: a worker killed, database connections dropped, Redis down."""

from __future__ import annotations

from loadtest.scenarios import Size


def run(session, name: str, tables: int):
    outcome = session.run(name, Size.ci(tables=tables))
    print(outcome.report())
    assert not outcome.failures, outcome.report()
    return outcome


def test_standings_converge_after_the_worker_is_killed_and_restarted(load_session):
    outcome = run(load_session, "worker", tables=10)
    assert outcome.facts["worker_killed_after_games"] < 10
    assert outcome.facts["standings_converged"]


def test_a_hand_is_stored_whole_or_not_at_all_when_its_database_connection_drops(load_session):
    outcome = run(load_session, "database", tables=10)
    assert outcome.facts["connections_terminated"] > 0
    # Every request the fault broke was retried with its key; the games hold each hand once.
    assert outcome.facts["finished"] == 10


def test_hands_are_recorded_while_redis_is_down_and_standings_catch_up(load_session):
    outcome = run(load_session, "redis", tables=10)
    assert outcome.facts["hands_recorded_while_down"] > 0
    assert outcome.facts["standings_converged"]

"""Connections kept between requests: a database connection is checked before reuse only once it has been idle,
its hottest statements are prepared on the server once, and the cache keeps one Redis client per server."""

from __future__ import annotations

import pytest
from django.db import close_old_connections, connection

from scorekeeper import redis_cache
from scorekeeper.postgresql import base as postgresql


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def dropped_by_the_server(pid: int) -> None:
    """The server ends the connection (as a restart or an idle timeout would), from a connection of its own."""
    import psycopg

    settings = connection.get_connection_params()
    with psycopg.connect(**settings, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def checks(monkeypatch):
    """How many times the kept connection was checked (``SELECT 1``) before a request used it."""
    counted: list[int] = []
    checked = connection.is_usable

    def counting():
        counted.append(1)
        return checked()

    monkeypatch.setattr(connection, "is_usable", counting)
    return counted


@pytest.mark.django_db(transaction=True)
def test_a_connection_used_a_moment_ago_is_not_checked_again(postgres, checks):
    first = backend_pid()
    close_old_connections()  # the request ends; the next begins
    assert backend_pid() == first
    assert checks == []


@pytest.mark.django_db(transaction=True)
def test_a_connection_idle_for_longer_is_checked_and_one_the_server_dropped_is_replaced(postgres, checks,
                                                                                         monkeypatch):
    first = backend_pid()
    close_old_connections()
    monkeypatch.setattr(postgresql, "TRUSTED_FOR", 0.0)  # as if a second had passed since it was used
    dropped_by_the_server(first)
    assert backend_pid() != first
    assert checks == [1]


@pytest.mark.django_db(transaction=True)
def test_a_connection_whose_last_statement_was_a_prepared_one_is_not_checked_again(postgres, checks):
    first = backend_pid()
    close_old_connections()
    with connection.preparing_cursor() as cursor:  # an API request's token, a hand's statements
        cursor.execute("SELECT %s::int", [1])
    connection.used_at -= 0.5 * postgresql.TRUSTED_FOR
    close_old_connections()
    with connection.preparing_cursor() as cursor:
        cursor.execute("SELECT %s::int", [2])
    assert backend_pid() == first
    assert checks == []


@pytest.mark.django_db(transaction=True)
def test_a_request_whose_first_statement_is_prepared_checks_an_idle_connection_and_replaces_a_dropped_one(
        postgres, checks):
    """An API request's first statement is its token's, a prepared one: after a restart of the database, a thread
    whose connection sat idle through it gets a new connection, not the error of the old one."""
    first = backend_pid()
    close_old_connections()
    connection.used_at -= 2 * postgresql.TRUSTED_FOR  # idle for longer than the window
    dropped_by_the_server(first)
    with connection.preparing_cursor() as cursor:
        cursor.execute("SELECT %s::int", [1])
        assert cursor.fetchone() == (1,)
    assert backend_pid() != first
    assert checks == [1]


@pytest.mark.django_db(transaction=True)
def test_a_prepared_statement_is_parsed_once_a_connection_and_logged_with_its_values(postgres):
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as logged:
        for value in (1, 2, 3):
            with connection.preparing_cursor() as cursor:
                cursor.execute("SELECT %s::int + 40", [value])
                assert cursor.fetchone() == (value + 40,)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s", ["%+ 40"])
        assert len(cursor.fetchall()) == 1
    assert [query["sql"] for query in logged.captured_queries] == [f"SELECT {value}::int + 40" for value in (1, 2, 3)]


@pytest.mark.django_db(transaction=True)
def test_a_games_poll_asks_by_one_statement_prepared_once(postgres, start_game, owner):
    from games.versions import game_version

    game = start_game("spades")
    for _ in range(3):
        assert game_version(owner, game.pk).pk == game.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s",
                       ["%FROM games_game g%JOIN games_player n%"])
        assert len(cursor.fetchall()) == 1


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    settings = {**connection.settings_dict, "ENGINE": "scorekeeper.postgresql"}
    kept = postgresql.DatabaseWrapper({**settings, "PREPARED_STATEMENTS": True}, alias="prepared")
    off = postgresql.DatabaseWrapper({**settings, "PREPARED_STATEMENTS": False}, alias="unprepared")
    assert kept.get_connection_params()["prepare_threshold"] == postgresql.PREPARED_WHEN_ASKED
    assert off.get_connection_params()["prepare_threshold"] is None  # Django's: nothing is prepared


def test_the_cache_builds_one_redis_client_per_server():
    cache = redis_cache.RedisCache("redis://127.0.0.1:1/0,redis://127.0.0.1:2/0", {})
    client = cache._cache
    writer = client.get_client(write=True)
    assert client.get_client(write=True) is writer
    readers = {id(client.get_client(write=False)) for _ in range(50)}
    assert len(readers) == 1 and id(writer) not in readers  # the replica's, built once
    assert writer.connection_pool is not client.get_client(write=False).connection_pool


@pytest.mark.django_db
def test_the_cache_keeps_and_reads_values_through_its_kept_client(redis_url):
    cache = redis_cache.RedisCache(redis_url, {})
    cache.set("kept-connections", {"seen": 1}, 30)
    assert cache.get("kept-connections") == {"seen": 1}
    assert cache._cache.get_client() is cache._cache.get_client()
    cache.delete("kept-connections")

"""Connections kept between requests: a database connection is checked before reuse only once it has been idle,
and the cache keeps one Redis client per server."""

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

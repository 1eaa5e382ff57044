"""Django's Redis cache, with one client per connection pool instead of one per operation.

Django's ``RedisCacheClient`` builds a ``redis.Redis`` for every get and set; building one fills its table of
reply handlers, a tenth of a millisecond each time, which a polled page (its session) and a recorded hand (its
request limit) pay on every request. A ``redis.Redis`` is safe to share between threads (each command takes a
connection from the pool), so each pool's client is built once and kept.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis


class KeptClients(redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients

"""Sessions read from the cache and kept in the database (Django's ``cached_db``), for a page polled every couple
of seconds by a signed-in phone to cost no session query; except that a cache that cannot be reached is passed
by, as the request limits pass it by: the database answers, and signing in, the pages and signing out work while
Redis is down (Django's own engine would fail them)."""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db

logger = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # noqa: BLE001 - the cache is down (or refuses the key): the database has the session
            logger.warning("a session was read from the database: the cache cannot be reached", exc_info=True)
            data = None
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except Exception:  # noqa: BLE001 - the next request reads the database again
            logger.warning("a session was not kept in the cache: it cannot be reached", exc_info=True)
        return data

    def exists(self, session_key):
        try:
            if session_key and (self.cache_key_prefix + session_key) in self._cache:
                return True
        except Exception:  # noqa: BLE001 - the database knows every session
            logger.warning("a new session's key was checked in the database alone: the cache cannot be reached",
                           exc_info=True)
        return super(cached_db.SessionStore, self).exists(session_key)

    def delete(self, session_key=None):
        try:
            super().delete(session_key)
        except Exception:  # noqa: BLE001 - gone from the database already, which the cache falls back to
            logger.error("an ended session may outlive its end in the cache until it expires: the cache could not "
                         "be reached to remove it", exc_info=True)

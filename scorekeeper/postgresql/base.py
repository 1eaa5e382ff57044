"""Django's PostgreSQL backend, checking a kept connection only when it has been idle.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before the first statement of every request that reuses a
connection, so that one the server dropped is replaced instead of failing the request. A busy worker pays that
round trip on every request (a poll, a hand) for connections it used a moment ago. Here the check is skipped when
the connection ran a statement within ``TRUSTED_FOR`` seconds (connection pools do the same: HikariCP's
``aliveBypassWindowMs``); a connection idle for longer is checked as before, and one that failed a statement is
still checked at the end of its request (``errors_occurred``).
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

# A connection that ran a statement this recently is taken to be alive.
TRUSTED_FOR = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    used_at = float("-inf")

    def create_cursor(self, name=None):
        cursor = super().create_cursor(name)
        self.used_at = time.monotonic()
        return cursor

    def close_if_health_check_failed(self):
        if self.connection is not None and time.monotonic() - self.used_at < TRUSTED_FOR:
            self.health_check_done = True
        super().close_if_health_check_failed()

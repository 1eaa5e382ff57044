"""Django's PostgreSQL backend, checking a kept connection only when it has been idle.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before the first statement of every request that reuses a
connection, so that one the server dropped is replaced instead of failing the request. A busy worker pays that
round trip on every request (a poll, a hand) for connections it used a moment ago. Here the check is skipped when
the connection ran a statement within ``TRUSTED_FOR`` seconds (connection pools do the same: HikariCP's
``aliveBypassWindowMs``); a connection idle for longer is checked as before, and one that failed a statement is
still checked at the end of its request (``errors_occurred``).

It also lets statements be prepared on the server, but only those that ask (``games.statements``: the hottest
requests' few statements, each prepared once a connection and then sent as its name and values). Django turns
preparation off so that connection poolers work; its own cursors bind values in the client and never prepare, so
they are unchanged. ``DATABASE_PREPARED_STATEMENTS=off`` turns it off again, for a pooler that cannot keep a
connection's prepared statements (PgBouncer in transaction mode before 1.21).
"""

from __future__ import annotations

import sys
import time

import psycopg
from django.db.backends.postgresql import base, operations

# A connection that ran a statement this recently is taken to be alive.
TRUSTED_FOR = 1.0


# psycopg prepares a statement that asks (``prepare=True``) or that ran this many times: never, unasked.
PREPARED_WHEN_ASKED = sys.maxsize


class PreparingCursor(psycopg.Cursor):
    """Binds values on the server and asks for each statement to be prepared (Django's cursor wrapper calls
    ``execute`` with none of psycopg's own arguments)."""

    def execute(self, query, params=None, *, prepare=True, binary=None):
        return super().execute(query, params, prepare=prepare, binary=binary)


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor, sql, params):
        # psycopg keeps no text of a statement it sent as a prepared one's name: the statement and its values.
        executed = super().last_executed_query(cursor, sql, params)
        if executed is None and isinstance(cursor, PreparingCursor):
            try:
                return self.compose_sql(sql, params)
            except psycopg.DataError:  # as Django's own server-binding cursors: a value that cannot be shown
                return None
        return executed


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    used_at = float("-inf")

    def preparing_cursor(self):
        """A cursor whose statements are prepared on the server, once a connection, and then sent as a name and
        values (``games.statements``: the few statements of the hottest requests), in Django's wrapper. A kept
        connection is checked first, as Django's own cursors check it: an API request's first statement is a
        prepared one (its token's), and a connection left idle through a restart of the database is dead."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        self.used_at = time.monotonic()
        raw = PreparingCursor(self.connection)
        return self.make_debug_cursor(raw) if self.queries_logged else self.make_cursor(raw)

    def get_connection_params(self):
        params = super().get_connection_params()
        if params.get("prepare_threshold") is None and self.settings_dict.get("PREPARED_STATEMENTS", True):
            params["prepare_threshold"] = PREPARED_WHEN_ASKED
        return params

    def create_cursor(self, name=None):
        cursor = super().create_cursor(name)
        self.used_at = time.monotonic()
        return cursor

    def close_if_health_check_failed(self):
        if self.connection is not None and time.monotonic() - self.used_at < TRUSTED_FOR:
            self.health_check_done = True
        super().close_if_health_check_failed()

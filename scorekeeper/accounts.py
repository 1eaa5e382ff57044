"""The signed-in account of a page's request, read by one statement written out once.

Every request of a signed-in browser reads its account (Django's ``ModelBackend.get_user``); a page polled every
couple of seconds by each phone at a table does little else. The ORM would build the same query anew for each
one, which costs more CPU than the rest of a poll answered 304. The statement is written once per database from
the user model's table and columns (as ``api/authentication.py`` does for tokens; on PostgreSQL prepared once a
connection: ``games.statements.cursor``); who is let in (an active account) and the session's checks
(``django.contrib.auth.get_user``) are Django's.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection

from games import statements
from games.statements import model_from_row, quoted


@cache
def account_statement(vendor: str) -> str:
    meta = get_user_model()._meta
    columns = ", ".join(quoted(field.column) for field in meta.concrete_fields)
    return f"SELECT {columns} FROM {quoted(meta.db_table)} WHERE {quoted(meta.pk.column)} = %s"


class AccountBackend(ModelBackend):
    """Django's ``ModelBackend`` (signing in, permissions), reading a session's account by one statement."""

    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        with statements.cursor() as cursor:
            cursor.execute(account_statement(connection.vendor), [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        user = model_from_row(model, list(row))
        return user if self.user_can_authenticate(user) else None

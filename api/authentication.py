"""Token authentication: DRF's, with the token and its user read by one statement written out once.

Every API request that sends ``Authorization: Token <key>`` looks its token up; the ORM would build the same
query (the token joined to its user) anew each time, which costs more CPU than recording the hand itself. The
statement is written once per database from the models' own tables and columns (on PostgreSQL prepared once a
connection: ``games.statements.cursor``), and its values converted as the ORM converts them. What is accepted and
refused, and the messages, are DRF's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games import statements
from games.statements import model_from_row, quoted


@cache
def token_statement(vendor: str) -> str:
    """The token with its user, by key."""
    token, user = Token._meta, get_user_model()._meta
    columns = ", ".join([*(f"t.{quoted(field.column)}" for field in token.concrete_fields),
                         *(f"u.{quoted(field.column)}" for field in user.concrete_fields)])
    return (f"SELECT {columns} FROM {quoted(token.db_table)} t JOIN {quoted(user.db_table)} u "
            f"ON u.{quoted(user.pk.column)} = t.{quoted(token.get_field('user').column)} "
            f"WHERE t.{quoted(token.pk.column)} = %s")


def token_and_user(key: str) -> tuple[Any, Any] | None:
    """(user, token) for this key, or None if there is no such token. One statement."""
    with statements.cursor() as cursor:
        cursor.execute(token_statement(connection.vendor), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(Token._meta.concrete_fields)
    token = model_from_row(Token, list(row[:width]))
    user = model_from_row(get_user_model(), list(row[width:]))
    token.user = user
    return user, token


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF reads it (the same header, refusals and messages)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = token_and_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, token = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token

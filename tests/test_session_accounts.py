"""A signed-in page's account: read by one statement, refused when inactive or gone, and kept for sessions
signed in before the account backend."""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection

from scorekeeper.accounts import AccountBackend

migration = import_module("games.migrations.0024_sessions_name_the_account_backend")


def test_an_active_account_is_read_as_the_orm_reads_it(owner):
    from django.contrib.auth import get_user_model

    read = AccountBackend().get_user(str(owner.pk))
    stored = get_user_model().objects.get(pk=owner.pk)
    fields = [field.attname for field in stored._meta.concrete_fields]
    assert [getattr(read, name) for name in fields] == [getattr(stored, name) for name in fields]
    assert read._state.adding is False and read.is_authenticated


def test_an_inactive_account_is_not_signed_in(owner):
    owner.is_active = False
    owner.save()
    assert AccountBackend().get_user(owner.pk) is None


@pytest.mark.parametrize("user_id", ["999999", "not a number", ""])
@pytest.mark.django_db
def test_a_session_naming_no_account_is_not_signed_in(user_id):
    assert AccountBackend().get_user(user_id) is None


def signed_in_session(user, backend: str) -> str:
    """A session as signing in through ``backend`` leaves it."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend,
                    HASH_SESSION_KEY: user.get_session_auth_hash()})
    session.create()
    return session.session_key


def profile_as(client, session_key: str) -> int:
    """The account's own page: 200 signed in, a redirect to signing in otherwise."""
    client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return client.get("/accounts/profile/", secure=True).status_code


def test_a_session_signed_in_before_the_account_backend_stays_signed_in(client, owner):
    session_key = signed_in_session(owner, migration.MODEL_BACKEND)
    assert profile_as(client, session_key) == 302  # signed out, as Django reads it
    migration.renamed(migration.MODEL_BACKEND, migration.ACCOUNT_BACKEND)(apps, SimpleNamespace(connection=connection))
    assert profile_as(client, session_key) == 200


def test_undoing_the_migration_gives_sessions_back_to_djangos_backend(owner):
    session_key = signed_in_session(owner, migration.ACCOUNT_BACKEND)
    migration.renamed(migration.ACCOUNT_BACKEND, migration.MODEL_BACKEND)(apps, SimpleNamespace(connection=connection))
    stored = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    assert stored[BACKEND_SESSION_KEY] == migration.MODEL_BACKEND

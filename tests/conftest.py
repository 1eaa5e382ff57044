"""Fixtures shared by every test, and the rule for tests that need PostgreSQL or Redis.

Such tests are marked ``services``. On a bare machine they skip when the service is not
configured; with ``REQUIRE_SERVICES=1`` (as in CI) a missing service fails them instead.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def using_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def need(condition: bool, what: str) -> None:
    """Skip (or, in CI, fail) a test whose service is missing."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"needs {what}")


@pytest.fixture
def postgres():
    need(using_postgres(), "PostgreSQL (DATABASE_URL=postgres://...)")


@pytest.fixture
def redis_url():
    need(bool(settings.REDIS_URL), "Redis (REDIS_URL=redis://...)")
    return settings.REDIS_URL

"""One migrated template database for the load and fault scenarios of a module (in each process of a
parallel run).

The scenarios start their own gunicorn, Celery worker and redis-server against fresh databases on the
PostgreSQL server of DATABASE_URL; this process's Django (and its test database) is not used. Skipped on a bare machine; CI runs them with
REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from tests.conftest import need, using_postgres


@pytest.fixture(scope="module")
def load_session():
    need(using_postgres(), "PostgreSQL (DATABASE_URL=postgres://...)")
    need(bool(settings.REDIS_URL), "Redis (REDIS_URL=redis://...)")
    from loadtest.session import Session

    # Each stack with a Redis of its own: scenarios in the run's parallel processes run side by side.
    session = Session(database_url=os.environ["DATABASE_URL"], redis_url=settings.REDIS_URL, private_redis=True)
    yield session
    session.close()

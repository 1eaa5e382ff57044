"""Settings for the test run: the real settings (scorekeeper/settings.py), with only what tests need changed.

pytest reads this module (``DJANGO_SETTINGS_MODULE`` in pyproject.toml). Anything started as its own
process (``manage.py`` in tests/test_settings.py, gunicorn and the workers of the load tests) gets the
real settings.
"""

from __future__ import annotations

import copy

from . import settings as real
from .settings import *  # noqa: F403

# Hashing a password the production way (PBKDF2) takes about a quarter of a second, and the fixtures
# make hundreds of users in a run. Tests never check how strong a hash is, only that signing in works.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Queued tasks run in-process in every test, even with REDIS_URL set: otherwise a test that commits
# (``transaction=True``, or on_commit callbacks run by ``django_capture_on_commit_callbacks``) would
# leave its task in Redis for nobody. The tests that start a real worker turn this off for themselves
# (tests/standings/test_worker.py).
CELERY_TASK_ALWAYS_EAGER = True

if real.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The test database is thrown away after the run, so SQLite need not wait for the disk at each
    # commit (migrations, tests that commit, every request of the browser tests).
    DATABASES = copy.deepcopy(real.DATABASES)
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA synchronous = OFF"

# The API's request limits (api/throttles.py) stay on, counting as in production, but high enough never to
# refuse: a test run sends thousands of requests a minute from one address and a handful of users. The
# tests of the limits set their own rates (tests/api/test_api_limits.py).
REST_FRAMEWORK = {**real.REST_FRAMEWORK,
                  "DEFAULT_THROTTLE_RATES": {scope: "1000000/minute"
                                             for scope in real.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}

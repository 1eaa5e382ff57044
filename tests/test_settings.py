"""Settings from the environment: typed, loud on junk, safe in production."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.env import database_from_url, env_bool, env_choice, env_int, env_list, env_rate

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k3y-" + "x9Q!v" * 12,
    "ALLOWED_HOSTS": "scores.example.org",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``manage.py`` in a process of its own, as a deployment runs it: the real settings module (not the
    test run's, which pytest puts in DJANGO_SETTINGS_MODULE) read from ``env`` alone."""
    unset = ("DJANGO_SETTINGS_MODULE", "DJANGO_ENV", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG",
             "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**clean, **env}, timeout=120)


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("yes", True), ("off", False), ("", False)])
def test_booleans_read_the_usual_words(raw, value):
    assert env_bool("X", not value, {"X": raw}) is value


@pytest.mark.parametrize(
    ("reader", "raw", "words"),
    [
        (lambda env: env_bool("DEBUG", False, env), "maybe", "DEBUG='maybe' is not a boolean"),
        (lambda env: env_int("DEBUG", 1, env), "ten", "DEBUG='ten' is not a whole number"),
        (lambda env: env_choice("DEBUG", "a", ("a", "b"), env), "c", "DEBUG='c' is not one of a, b"),
    ],
)
def test_junk_values_fail_loudly_naming_the_variable(reader, raw, words):
    with pytest.raises(ImproperlyConfigured, match=words):
        reader({"DEBUG": raw})


@pytest.mark.parametrize(("raw", "rate"), [(None, "60/minute"), ("5/second", "5/second"), ("100/Hour", "100/hour"),
                                           ("off", None), ("unlimited", None)])
def test_request_rates_read_a_count_per_period_or_off(raw, rate):
    assert env_rate("THROTTLE_USER_WRITES", "60/minute", {} if raw is None else {"THROTTLE_USER_WRITES": raw}) == rate


@pytest.mark.parametrize("raw", ["60", "60/fortnight", "lots/minute", "-1/minute"])
def test_a_rate_that_cannot_be_read_fails_loudly(raw):
    with pytest.raises(ImproperlyConfigured, match="THROTTLE_USER_WRITES=.* is not a rate"):
        env_rate("THROTTLE_USER_WRITES", "60/minute", {"THROTTLE_USER_WRITES": raw})


def test_lists_are_comma_separated():
    assert env_list("HOSTS", [], {"HOSTS": "a.org, b.org,"}) == ["a.org", "b.org"]


def test_database_urls():
    assert database_from_url("sqlite:////tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"
    postgres = database_from_url("postgres://u:p@db.local:5433/scores")
    assert (postgres["ENGINE"], postgres["HOST"], postgres["PORT"], postgres["NAME"]) == (
        "scorekeeper.postgresql", "db.local", 5433, "scores")
    with pytest.raises(ImproperlyConfigured, match="mysql"):
        database_from_url("mysql://u:p@h/db")


def test_production_refuses_to_start_without_a_secret_key_or_hosts():
    assert "SECRET_KEY must be set" in manage("check", DJANGO_ENV="production").stderr
    assert "ALLOWED_HOSTS must be set" in manage(
        "check", DJANGO_ENV="production", SECRET_KEY=PRODUCTION["SECRET_KEY"]).stderr


def test_production_passes_the_deployment_checks():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bad_setting_stops_start_up():
    done = manage("check", DEBUG="maybe")
    assert done.returncode != 0 and "DEBUG='maybe' is not a boolean" in done.stderr


def setting(expression: str, **env: str) -> str:
    done = manage("shell", "--no-imports", "-c", f"from django.conf import settings; print({expression})", **env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def transport_options(**env: str) -> dict:
    return json.loads(setting("__import__('json').dumps(settings.CELERY_BROKER_TRANSPORT_OPTIONS)", **env))


def test_a_task_whose_worker_died_is_delivered_again_within_minutes():
    options = transport_options()
    assert (options["visibility_timeout"], options["unacked_restore_interval"]) == (900, 30)
    shorter = transport_options(CELERY_VISIBILITY_TIMEOUT="120")
    assert (shorter["visibility_timeout"], shorter["unacked_restore_interval"]) == (120, 12)
    assert setting("settings.CELERY_TASK_ACKS_LATE") == "True"


def test_manage_py_reads_the_real_settings_with_the_production_password_hasher():
    done = manage("shell", "--no-imports", "-c", "from django.conf import settings; "
                  "print(settings.SETTINGS_MODULE, settings.PASSWORD_HASHERS[0])")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["scorekeeper.settings", "django.contrib.auth.hashers.PBKDF2PasswordHasher"]


def test_gunicorn_workers_keep_telling_they_are_alive_while_a_long_download_is_sent(monkeypatch):
    # A sync worker is silent while it answers, and is killed mid-download after WEB_TIMEOUT; the threaded one is not.
    for name in ("WEB_WORKER_CLASS", "WEB_THREADS", "WEB_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["worker_class"] == "gthread"
    assert config["threads"] == 4 and config["timeout"] == 30

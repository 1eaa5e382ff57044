"""Typed readers for settings from environment variables.

Each one fails loudly on a value it cannot read, naming the variable, so a typo in a
deployment stops the server at start-up instead of quietly falling back to a default.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None, environ: Mapping[str, str] = os.environ) -> str | None:
    return environ.get(name, default)


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use one of {sorted(TRUE_WORDS | FALSE_WORDS)}")


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None


def env_list(name: str, default: list[str] | None = None, environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_ints(name: str, default: list[int], environ: Mapping[str, str] = os.environ) -> list[int]:
    """A comma-separated list of whole numbers, e.g. ``5,60,300``."""
    raw = environ.get(name)
    if raw is None:
        return list(default)
    try:
        return [int(item) for item in env_list(name, [], environ)]
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a comma-separated list of whole numbers") from None


def env_choice(name: str, default: str, choices: tuple[str, ...], environ: Mapping[str, str] = os.environ) -> str:
    raw = environ.get(name, default)
    if raw not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of {', '.join(choices)}")
    return raw


RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")
UNLIMITED_WORDS = {"off", "none", "unlimited"}


def env_rate(name: str, default: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """A request rate such as ``60/minute`` (per second, minute, hour or day); ``off`` for no limit (None)."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    word = raw.strip().lower()
    if word in UNLIMITED_WORDS:
        return None
    if not RATE.match(word):
        raise ImproperlyConfigured(f"{name}={raw!r} is not a rate; write it like 60/minute, 5/second or off")
    return word


def database_from_url(url: str) -> dict:
    """Django DATABASES entry for ``sqlite:///PATH`` or ``postgres://...`` URLs; anything else is refused."""
    import dj_database_url

    scheme = url.split(":", 1)[0]
    if scheme not in ("sqlite", "postgres", "postgresql", "pgsql"):
        raise ImproperlyConfigured(
            f"DATABASE_URL scheme {scheme!r} is not supported; use sqlite:///PATH or postgres://USER:PASS@HOST/NAME"
        )
    try:
        # Persistent connections are checked before reuse (once idle for a second: scorekeeper/postgresql), so
        # one the server dropped is replaced instead of failing the next request.
        config = dj_database_url.parse(url, conn_max_age=60 if scheme != "sqlite" else 0,
                                       conn_health_checks=scheme != "sqlite")
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL could not be read: {error}") from None
    if scheme != "sqlite":
        # Django's backend, checking a kept connection only after it was idle (scorekeeper/postgresql/base.py).
        config["ENGINE"] = "scorekeeper.postgresql"
    return dict(config)

"""Request limits: anonymous reads per address, writes per user, token requests per address.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the environment in
scorekeeper/settings.py; None for no limit) and are read on every request, so a change of settings
applies at once. Each limit counts requests in fixed windows (``60/minute``: at most 60 in each
clock minute) with one atomic counter per window in the cache, so app servers sharing Redis share
their counts. A request over the limit is a 429 with ``Retry-After`` (the seconds until the window
ends). If the cache cannot be reached the request is let through: a limit must not take the API
down with Redis.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"60/minute"`` -> (60, 60); None -> None (no limit)."""
    if rate is None:
        return None
    count, period = rate.split("/", 1)
    return int(count), PERIODS[period[0]]


class ScopedRate(BaseThrottle):
    """A limit of ``DEFAULT_THROTTLE_RATES[scope]`` requests per window for each ``ident``."""

    scope = ""

    def __init__(self) -> None:
        self.seconds_left = 0.0

    def ident(self, request, view) -> str | None:
        """Who the request counts against, or None if this limit does not apply to it."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        rate = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))
        ident = self.ident(request, view) if rate else None
        if rate is None or ident is None:
            return True
        limit, period = rate
        now = time.time()
        window = int(now // period)
        key = f"throttle:{self.scope}:{ident}:{window}"
        try:
            cache.add(key, 0, timeout=period + 1)
            count = cache.incr(key)
        except ValueError:  # the window's counter expired between the two calls: a new window has begun
            return True
        except Exception:  # noqa: BLE001 - the cache is down; let the request through rather than fail it
            logger.warning("request limits are off: the cache cannot be reached", exc_info=True)
            return True
        self.seconds_left = (window + 1) * period - now
        return count <= limit

    def wait(self) -> float:
        return max(1.0, self.seconds_left)


class AnonymousReads(ScopedRate):
    """Reads by someone not signed in, per address."""

    scope = "anonymous_reads"

    def ident(self, request, view) -> str | None:
        if request.method not in SAFE_METHODS or request.user.is_authenticated:
            return None
        return self.get_ident(request)


class UserWrites(ScopedRate):
    """Writes (POST, PUT, PATCH, DELETE) per signed-in user."""

    scope = "user_writes"

    def ident(self, request, view) -> str | None:
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return None
        return str(request.user.pk)


class TokenRequests(ScopedRate):
    """Username-and-password exchanges for a token, per address (the token endpoint only)."""

    scope = "token_requests"

    def ident(self, request, view) -> str | None:
        return None if request.method in SAFE_METHODS else self.get_ident(request)

"""Request limits: anonymous reads per address, writes per user, token requests and sign-ups per address.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the environment in
scorekeeper/settings.py; None for no limit) and are read on every request, so a change of settings
applies at once. Each is counted by ``scorekeeper.limits`` (fixed windows, one counter per window in
the cache, shared by the app servers; let through if the cache is down). A request over the limit is
a 429 with ``Retry-After`` (the seconds until the window ends).
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from scorekeeper.limits import over_limit

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ScopedRate(BaseThrottle):
    """A limit of ``DEFAULT_THROTTLE_RATES[scope]`` requests per window for each ``ident``."""

    scope = ""

    def __init__(self) -> None:
        self.seconds_left = 0.0

    def ident(self, request, view) -> str | None:
        """Who the request counts against, or None if this limit does not apply to it."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        ident = self.ident(request, view) if rate else None
        if ident is None:
            return True
        left = over_limit(self.scope, ident, rate)
        self.seconds_left = left or 0.0
        return left is None

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


class SignupRequests(ScopedRate):
    """Sign-ups per address (the sign-up endpoint, and the site's sign-up form through ``signup_over_limit``)."""

    scope = "signups"

    def ident(self, request, view) -> str | None:
        return None if request.method in SAFE_METHODS else self.get_ident(request)

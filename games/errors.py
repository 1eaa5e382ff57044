"""Errors the services raise, besides the rules engine's own (``games.rules.RulesError``).

Every door translates them the same way: the API to one JSON error shape, the pages to
messages beside the field, the commands to a line on standard error.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ServiceError):
    """Input the services cannot use: a missing player, the same player in two seats..."""


class NotAllowed(ServiceError):
    """The user may not do this (the policy in ``games/policy.py`` said no)."""


class GameClosed(ServiceError):
    """The game was abandoned, or a change would undo a finished match game whose successor has begun."""


class HandConflict(ServiceError):
    """Another hand got there first: ``state`` is the game as it now stands."""

    def __init__(self, message: str, *, state: dict[str, Any]):
        super().__init__(message, field="expected_number")
        self.state = state


class IdempotencyMismatch(ServiceError):
    """The same idempotency key was sent earlier with a different hand."""


class IdempotencyInFlight(ServiceError):
    """The first request with this key is still being recorded; retry shortly."""

    retry_after = 1

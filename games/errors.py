"""Errors the services raise, besides the rules engine's own (``games.rules.RulesError``).

Both derive from :class:`DomainError`. Every door translates them in one place: the API to one
JSON error shape (``api.exceptions``), the pages to messages beside the field (``RefusalForm``),
the commands to a line on standard error.
"""

from __future__ import annotations

from typing import Any

from games.rules.errors import DomainError

__all__ = ["DomainError", "GameClosed", "HandChanged", "HandConflict", "IdempotencyMismatch", "InvalidInput",
           "InvitationClosed", "NoSuchThing", "NotAllowed", "NotFound", "ServiceError", "SimilarName", "StateConflict"]


class ServiceError(DomainError):
    """Anything the services refuse."""


class InvalidInput(ServiceError):
    """Input the services cannot use: a missing player, the same player in two seats..."""


class NoSuchThing(InvalidInput):
    """What the request names does not exist (a hand number past the last)."""


class StateConflict(InvalidInput):
    """Input that is fine in itself but cannot apply to things as they stand (a league's last owner leaving)."""


class NotFound(ServiceError):
    """There is no such thing, or none the user may see (the two are told apart to nobody)."""


class NotAllowed(ServiceError):
    """The user may not do this (the policy in ``games/policy.py`` said no)."""


class GameClosed(ServiceError):
    """The game was abandoned, or a change would undo a finished match game whose successor has begun."""


class HandConflict(ServiceError):
    """Another hand got there first: ``state`` is the game as it now stands."""

    def __init__(self, message: str, *, state: dict[str, Any]):
        super().__init__(message, field="expected_number")
        self.state = state


class HandChanged(ServiceError):
    """A change was asked for a version of a hand that is no longer the stored one (someone else changed it)."""

    def __init__(self, message: str):
        super().__init__(message, field="version")


class IdempotencyMismatch(ServiceError):
    """The same idempotency key was sent earlier with a different request."""


class InvitationClosed(ServiceError):
    """The invitation can no longer be accepted: it expired, was used up, withdrawn or declined."""

    def __init__(self, message: str):
        super().__init__(message, field="invitation")


class SimilarName(InvalidInput):
    """A new player's name differs only in case or spacing from a player already there: probably the same person."""

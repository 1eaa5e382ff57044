"""Rule violations, in words a card player understands.

They are translated only at the edges: a ``hand N: ...`` line in the ``score`` command,
field errors (HTTP 400) in the API, messages beside the field on the table page.
"""

from __future__ import annotations


class DomainError(Exception):
    """Anything Scorekeeper refuses, in a sentence for a person (``message``), and the field at fault.

    The base of the engine's errors and of the services' (``games.errors``), so that each door
    translates every refusal in one place.
    """

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class RulesError(DomainError):
    """Anything the rules engine refuses."""

    def __init__(self, field: str | None, message: str):
        super().__init__(message, field=field)


class UnknownGame(RulesError):
    """A game type the registry does not know; the message lists the ones it does."""


class InvalidOptions(RulesError):
    """An unknown option or a value the option does not take; the message says which values it takes."""


class InvalidHand(RulesError):
    """A hand the rules do not allow.

    ``number`` is the hand's place in the game (1, 2, ...); ``field`` is the record field at fault,
    dotted for a seat or side inside it (``tricks.N``), or ``None`` when the hand as a whole is refused.
    """

    def __init__(self, number: int, field: str | None, message: str):
        super().__init__(field, message)
        self.number = number

    def __str__(self) -> str:
        return f"hand {self.number}: {self.message}"

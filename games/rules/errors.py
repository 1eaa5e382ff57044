"""Rule violations, in words a card player understands.

They are translated only at the edges: a ``hand N: ...`` line in the ``score`` command,
field errors (HTTP 400) in the API, messages beside the field on the table page.

Every value a message quotes back is written as JSON (:func:`shown`), since that is how the
scorekeeper wrote it: ``not true``, ``not null``, ``not "3"``.
"""

from __future__ import annotations

import json
from typing import Any


def shown(value: Any) -> str:
    """``value`` as a message quotes it back to a person: in JSON, the way it was written.

    >>> shown(True), shown(None), shown("3"), shown(3), shown("Pík"), shown({"N": 2.5})
    ('true', 'null', '"3"', '3', '"Pík"', '{"N": 2.5}')

    A value JSON has no spelling for (one that can only come from Python) is shown as Python
    writes it, rather than failing to say what was wrong:

    >>> shown({1, 2})
    '{1, 2}'
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return repr(value)
    except Exception:  # a message must never fail because of the value it is about
        return f"a {type(value).__name__}"


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


class UnknownGame(RulesError):
    """A game type the registry does not know; the message lists the ones it does."""


class InvalidOptions(RulesError):
    """An unknown option or a value the option does not take; the message says which values it takes."""


class InvalidHand(RulesError):
    """A hand the rules do not allow.

    ``number`` is the hand's place in the game (1, 2, ...); ``field`` is the record field at fault,
    dotted for a seat or side inside it (``tricks.N``), or ``None`` when the hand as a whole is refused.
    """

    def __init__(self, number: int, message: str, *, field: str | None = None):
        super().__init__(message, field=field)
        self.number = number

    def __str__(self) -> str:
        return f"hand {self.number}: {self.message}"

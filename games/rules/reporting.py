"""What a game reports besides its score: the extras shown beside the totals and the player figures' rates.

Each ruleset lists its own (``Ruleset.extras_shown``, ``Ruleset.figure_rates``); pages, the API
and the standings read them from the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Extra:
    """A running count a game keeps per side beside the score (Spades: bags), shown with the totals.

    ``name`` is its key in :attr:`GameState.extras`; ``one`` and ``many`` are the words for it.
    """

    name: str
    one: str
    many: str

    def words(self, count: int) -> str:
        """``1 bag``, ``3 bags``."""
        return f"{count} {self.one if count == 1 else self.many}"


@dataclass(frozen=True)
class Rate:
    """A player figure shown beside the counts: ``part`` out of ``whole`` (``hands`` for hands played).

    A success rate reads "3 of 4 (75%)"; an ``average`` reads as a number with its ``unit``
    ("5.5 cards"). ``name`` is the rate's key in the API.
    """

    name: str
    label: str
    part: str
    whole: str
    average: bool = False
    unit: str = ""
    digits: int = 4

    def of(self, counts: Mapping[str, int]) -> float | None:
        """The rate from a player's counts (``None`` when there is nothing to divide by)."""
        whole = counts.get(self.whole)
        if not whole:
            return None
        return round(counts.get(self.part, 0) / whole, self.digits)

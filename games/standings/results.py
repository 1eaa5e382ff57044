"""The facts standings are computed from: finished games and finished Trumps matches, as plain values.

The service reads these from the database; the arithmetic (``tables``, ``ratings``) takes them
and nothing else, so it can be checked by hand on a small league without a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class GameResult:
    """A finished game: who sat on each side, the final totals and the winning side.

    ``sides`` maps each side to its players, as the game's rules seat them: ``{"NS": (north, south),
    "EW": (east, west)}`` for partnership games, ``{"N": (north,), "E": (east,), ...}`` for games
    played alone (cutthroat Spades).
    """

    game_id: int
    game_type: str
    finished_at: datetime
    sides: Mapping[str, tuple[int, ...]]
    totals: Mapping[str, int]
    winner: str
    match_id: int | None = None

    @property
    def partnerships(self) -> bool:
        return all(len(players) == 2 for players in self.sides.values())

    @property
    def order(self) -> tuple[datetime, int, int]:
        """Where the game falls in the league's history: by finish time, then id."""
        return (self.finished_at, 0, self.game_id)


@dataclass(frozen=True)
class MatchOutcome:
    """A finished match (Trumps): each player's match total and the winners (several on a tie)."""

    match_id: int
    game_type: str
    finished_at: datetime
    player_totals: Mapping[int, int]
    winners: frozenset[int]

    @property
    def order(self) -> tuple[datetime, int, int]:
        # A match finishes with its third game, so it sorts just after that game.
        return (self.finished_at, 1, self.match_id)


def int_totals(totals: Any, sides: Iterable[str]) -> dict[str, int]:
    """Final totals per side; a side missing from stored totals counts 0."""
    totals = totals if isinstance(totals, Mapping) else {}
    out = {}
    for side in sides:
        value = totals.get(side, 0)
        out[side] = int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0
    return out

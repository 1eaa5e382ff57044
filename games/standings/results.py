"""The facts standings are computed from: finished games and finished Trumps matches, as plain values.

The service reads these from the database; the arithmetic (``tables``, ``ratings``) takes them
and nothing else, so it can be checked by hand on a small league without a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from games.rules import Ruleset, ruleset_class


@dataclass(frozen=True)
class GameResult:
    """A finished game: who sat on each side, the final totals, the winning side, and the game's rules.

    ``sides`` maps each side to its players, as the game's rules seat them: ``{"NS": (north, south),
    "EW": (east, west)}`` for partnership games, ``{"N": (north,), "E": (east,), ...}`` for games
    played alone (cutthroat Spades). ``ruleset`` ranks the result: where each side placed, whether a
    lower total is better, whether the sides are partnerships. Build one with :meth:`of`.
    """

    game_id: int
    game_type: str
    finished_at: datetime
    sides: Mapping[str, tuple[int, ...]]
    totals: Mapping[str, int]
    winner: str
    ruleset: Ruleset = field(repr=False, compare=False)
    match_id: int | None = None

    @classmethod
    def of(cls, ruleset: Ruleset, *, game_id: int, finished_at: datetime, seating: Mapping[str, int], totals: Any,
           winner: str | None, match_id: int | None = None) -> GameResult:
        """The result of a game played under ``ruleset`` with ``seating`` (seat -> player) and the final totals
        as stored (a side missing counts 0)."""
        sides = {side: tuple(seating[seat] for seat in seats) for side, seats in ruleset.seats_by_side.items()}
        return cls(game_id=game_id, game_type=ruleset.game_type, finished_at=finished_at, sides=sides,
                   totals=int_totals(totals, sides), winner=winner or "", ruleset=ruleset, match_id=match_id)

    @property
    def partnerships(self) -> bool:
        return self.ruleset.partnerships

    @property
    def drawn(self) -> bool:
        """A game of a fixed number of hands that ended with the sides level at the top: nobody won it."""
        return not self.winner and self.ruleset.can_draw

    @property
    def counted(self) -> bool:
        """Whether the result can have come from play: won by one of its sides, or drawn. Any other finished game
        (no winner where the rules always name one) is left out of tables, records and ratings."""
        return self.winner in self.sides or self.drawn

    @cached_property
    def places(self) -> Mapping[str, int]:
        """Where each side finished, 0 being first (the ruleset's ``places``)."""
        return self.ruleset.places(self.totals, (self.winner,) if self.winner in self.sides else ())

    def against(self, side: str) -> int:
        """The best final total among the other sides (the highest, or the lowest where a lower total wins):
        the one ``side`` had to beat. 0 when there is no other side."""
        best = self.ruleset.best_total(total for other, total in self.totals.items() if other != side)
        return 0 if best is None else best

    def margin(self, side: str, against: int) -> int:
        """How far ``side`` finished ahead of the total ``against``: positive when it did better."""
        return self.ruleset.margin(self.totals.get(side, 0), against)

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

    @cached_property
    def places(self) -> Mapping[int, int]:
        """Where each player finished the match, 0 being first: the winners (a tiebreak may have split equal
        totals), then the others by match total, as the game's ruleset ranks them (``places``)."""
        return ruleset_class(self.game_type).places(self.player_totals, self.winners)

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

"""Per-player figures card players care about, added up hand by hand.

What a hand adds is what its game's ruleset reports (``Ruleset.figures``, from the hand's record and
the details the engine stored when it scored it); the names of the counts and the rates shown from
them are the ruleset's too (``figure_counts``, ``figure_rates``). Every game also counts ``hands``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import SEATS, Ruleset, ruleset_class


class FiguresBuilder:
    """Adds hands up per (game type, player)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], dict[str, int]] = {}

    def add_hand(self, ruleset: Ruleset, seats: Mapping[str, int], record: Mapping[str, Any],
                 details: Mapping[str, Any]) -> None:
        game_type, counts = ruleset.game_type, self.counts
        for seat in SEATS:
            key = (game_type, seats[seat])
            tally = counts.get(key)
            if tally is None:
                tally = counts[key] = {"hands": 0}
            tally["hands"] += 1
        for seat, figures in ruleset.figures(record, details).items():
            tally = counts[(game_type, seats[seat])]
            for name, value in figures.items():
                tally[name] = tally.get(name, 0) + value

    def seat_tallies(self, game_type: str, seats: Mapping[str, int]) -> tuple[dict[str, int], ...]:
        """The tallies of a game's four players (in ``SEATS`` order), made if new: for adding up many hands."""
        counts, out = self.counts, []
        for seat in SEATS:
            key = (game_type, seats[seat])
            tally = counts.get(key)
            if tally is None:
                tally = counts[key] = {"hands": 0}
            out.append(tally)
        return tuple(out)

    def figures(self) -> dict[tuple[str, int], dict[str, int]]:
        """Every count the game type names (0 when it never happened), plus ``hands``."""
        out = {}
        for (game_type, player), counts in sorted(self.counts.items()):
            names = ("hands", *ruleset_class(game_type).figure_counts)
            out[(game_type, player)] = {name: int(counts.get(name, 0)) for name in names}
        return out

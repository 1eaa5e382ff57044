"""Scorekeeper's rules engine: the scoring rules of each game, in plain Python.

This package imports only the standard library, so the command line, the services, the API
and the pages all score with the same code, and it can be used on its own:

>>> from games.rules import get_ruleset
>>> rules = get_ruleset("spades", {"target": 300})
>>> state = rules.replay([{"bids": {"N": 3, "E": 4, "S": 4, "W": 2},
...                        "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}])
>>> dict(state.totals)
{'NS': 70, 'EW': 60}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .base import (
    PARTNERSHIPS,
    RULES_VERSION,
    SEATS,
    GameState,
    HandScore,
    Option,
    Ruleset,
    ScoredHand,
    next_seat,
)
from .errors import InvalidHand, InvalidOptions, RulesError, UnknownGame, shown
from .reporting import Extra, Rate
from .smudge import Smudge
from .spades import Spades
from .thieving_stink import ThievingStink
from .trumps import Trumps

# The one registry of games: every per-game fact is on these classes, found by game type.
RULESETS: dict[str, type[Ruleset]] = {}


def register(ruleset: type[Ruleset]) -> type[Ruleset]:
    """Add a game to the registry (in the order games are listed everywhere)."""
    RULESETS[ruleset.game_type] = ruleset
    return ruleset


for _ruleset in (Spades, Smudge, Trumps, ThievingStink):
    register(_ruleset)


def game_types() -> tuple[str, ...]:
    """Every registered game type, in the order games are listed."""
    return tuple(RULESETS)


def rulesets() -> tuple[type[Ruleset], ...]:
    return tuple(RULESETS.values())


def ruleset_class(game_type: str) -> type[Ruleset]:
    try:
        return RULESETS[game_type]
    except (KeyError, TypeError):
        raise UnknownGame(
            f"unknown game {shown(game_type)}; valid games: {', '.join(RULESETS)}",
            field="game_type",
        ) from None


def game_order(game_type: str) -> int:
    """Where a game type comes in lists (unknown types last)."""
    return list(RULESETS).index(game_type) if game_type in RULESETS else len(RULESETS)


def get_ruleset(game_type: str, options: Mapping[str, Any] | None = None, *,
                rules_version: int = RULES_VERSION) -> Ruleset:
    """The rules of ``game_type`` under ``options`` (defaults filled in for any left out), as they stood at
    ``rules_version`` (a stored game's own; today's rules by default).

    Raises :class:`UnknownGame` or :class:`InvalidOptions`, each naming the valid choices.
    """
    return ruleset_class(game_type)(options or {}, rules_version=rules_version)


def random_hand(game_type: str, rng: random.Random) -> dict[str, Any]:
    """A plausible hand of ``game_type`` (its ruleset's ``sample_hand``)."""
    return ruleset_class(game_type).sample_hand(rng)


__all__ = [
    "PARTNERSHIPS",
    "RULES_VERSION",
    "RULESETS",
    "SEATS",
    "Extra",
    "GameState",
    "HandScore",
    "InvalidHand",
    "InvalidOptions",
    "Option",
    "Rate",
    "Ruleset",
    "RulesError",
    "ScoredHand",
    "UnknownGame",
    "game_order",
    "game_types",
    "get_ruleset",
    "next_seat",
    "random_hand",
    "register",
    "ruleset_class",
    "rulesets",
    "shown",
]

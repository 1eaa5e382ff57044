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

from collections.abc import Mapping
from typing import Any

from .base import PARTNERSHIPS, SEATS, GameState, HandScore, Option, Ruleset, ScoredHand, next_seat
from .errors import InvalidHand, InvalidOptions, RulesError, UnknownGame, shown
from .smudge import Smudge
from .spades import Spades
from .thieving_stink import ThievingStink
from .trumps import Trumps

# Bumped whenever a change to the rules could score a stored hand differently; games record
# the version that scored them. The changes are listed in docs/rules.md ("Versions").
# 2: under Trumps' double_scope: contract_only, a double multiplies the set penalty too.
RULES_VERSION = 2

RULESETS: Mapping[str, type[Ruleset]] = {
    ruleset.game_type: ruleset for ruleset in (Spades, Smudge, Trumps, ThievingStink)
}
GAME_TYPES: tuple[str, ...] = tuple(RULESETS)


def ruleset_class(game_type: str) -> type[Ruleset]:
    try:
        return RULESETS[game_type]
    except (KeyError, TypeError):
        raise UnknownGame(
            "game_type", f"unknown game {shown(game_type)}; valid games: {', '.join(GAME_TYPES)}"
        ) from None


def get_ruleset(game_type: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The rules of ``game_type`` under ``options`` (defaults filled in for any left out).

    Raises :class:`UnknownGame` or :class:`InvalidOptions`, each naming the valid choices.
    """
    return ruleset_class(game_type)(options or {})


__all__ = [
    "GAME_TYPES",
    "PARTNERSHIPS",
    "RULES_VERSION",
    "RULESETS",
    "SEATS",
    "GameState",
    "HandScore",
    "InvalidHand",
    "InvalidOptions",
    "Option",
    "Ruleset",
    "RulesError",
    "ScoredHand",
    "UnknownGame",
    "get_ruleset",
    "next_seat",
    "ruleset_class",
    "shown",
]

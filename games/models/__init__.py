"""Scorekeeper's tables: play (players, leagues, games, hands, history) and standings."""

from .play import (
    GAME_TYPE_CHOICES,
    GAME_TYPE_NAMES,
    SEAT_CHOICES,
    Game,
    Hand,
    HandRevision,
    IdempotencyRecord,
    League,
    Match,
    Membership,
    Player,
)
from .standings import PlayerFigures, PlayerRating, RatingChange, Standing  # noqa: F401  (standings tables)

__all__ = [
    "GAME_TYPE_CHOICES",
    "GAME_TYPE_NAMES",
    "SEAT_CHOICES",
    "Game",
    "Hand",
    "HandRevision",
    "IdempotencyRecord",
    "League",
    "Match",
    "Membership",
    "Player",
]

"""Scorekeeper's tables: play (players, leagues, games, hands, history) and standings."""

from .play import (
    SEAT_CHOICES,
    Game,
    Hand,
    HandRevision,
    IdempotencyRecord,
    League,
    Match,
    Membership,
    Player,
    game_type_name,
)
from .standings import CountedResult, PlayerFigures, PlayerRating, RatingChange, Standing  # noqa: F401  (standings tables)

__all__ = [
    "SEAT_CHOICES",
    "Game",
    "Hand",
    "HandRevision",
    "IdempotencyRecord",
    "League",
    "Match",
    "Membership",
    "Player",
    "game_type_name",
]

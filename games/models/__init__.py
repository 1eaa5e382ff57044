"""Scorekeeper's tables: play (players, leagues, games, hands, history) and standings."""

from .people import Invitation, InvitationAcceptance, PlayerClaim, display_name
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
    name_key,
)
from .standings import CountedResult, PlayerFigures, PlayerRating, RatingChange, Standing  # noqa: F401  (standings tables)

__all__ = [
    "SEAT_CHOICES",
    "Game",
    "Hand",
    "HandRevision",
    "IdempotencyRecord",
    "Invitation",
    "InvitationAcceptance",
    "League",
    "Match",
    "Membership",
    "Player",
    "PlayerClaim",
    "display_name",
    "game_type_name",
    "name_key",
]

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
from .seasons import Season
from .standings import ChangedResult, CountedResult, PlayerFigures, PlayerRating, RatingChange, Standing  # noqa: F401  (standings tables)
from .webhooks import TEST_EVENT, WEBHOOK_EVENTS, WebhookDelivery, WebhookEndpoint

__all__ = [
    "SEAT_CHOICES",
    "TEST_EVENT",
    "WEBHOOK_EVENTS",
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
    "Season",
    "WebhookDelivery",
    "WebhookEndpoint",
    "display_name",
    "game_type_name",
    "name_key",
]

"""Scorekeeper's tables: play (players, leagues, games, hands, history) and standings."""

from .nights import Night, NightPlayer, NightRound, NightSubstitution, NightTable
from .people import Invitation, InvitationAcceptance, PlayerClaim, display_name
from .play import (
    MAX_PROVISIONAL_HOURS,
    PROVISIONAL_HOURS,
    SEAT_CHOICES,
    Confirmation,
    Game,
    Hand,
    HandCheck,
    HandRevision,
    IdempotencyRecord,
    League,
    Match,
    Membership,
    Player,
    game_type_name,
    name_key,
)
from .restores import LeagueRestore, RestoreChunk
from .seasons import Season
from .standings import ChangedResult, CountedResult, PlayerFigures, PlayerRating, RatingChange, Standing  # noqa: F401  (standings tables)
from .webhooks import TEST_EVENT, WEBHOOK_EVENTS, WebhookDelivery, WebhookEndpoint

__all__ = [
    "MAX_PROVISIONAL_HOURS",
    "PROVISIONAL_HOURS",
    "SEAT_CHOICES",
    "TEST_EVENT",
    "WEBHOOK_EVENTS",
    "Confirmation",
    "Game",
    "Hand",
    "HandCheck",
    "HandRevision",
    "IdempotencyRecord",
    "Invitation",
    "InvitationAcceptance",
    "League",
    "LeagueRestore",
    "Match",
    "Membership",
    "Night",
    "NightPlayer",
    "NightRound",
    "NightSubstitution",
    "NightTable",
    "Player",
    "PlayerClaim",
    "RestoreChunk",
    "Season",
    "WebhookDelivery",
    "WebhookEndpoint",
    "display_name",
    "game_type_name",
    "name_key",
]

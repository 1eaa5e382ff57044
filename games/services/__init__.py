"""Every write in Scorekeeper: one transaction each, keyword-only, named ``<thing>_<action>``.

Views, API endpoints, admin actions, commands and tasks call these and nothing else to change
a game, so the rules and the permission policy are applied the same way whichever door is used.
"""

from .accounts import account_signup, profile_update
from .confirmations import Confirmer, hand_confirm, hand_dispute, hand_keep, provisional_release
from .games import game_abandon, game_set_public, game_set_scorekeeper, game_snapshot, game_start
from .hands import HandResult, game_end_now, hand_correct, hand_record, hand_undo
from .invitations import invitation_accept, invitation_create, invitation_decline, invitation_revoke
from .leagues import (
    league_create,
    league_member_change,
    league_member_named,
    league_set_member,
    league_update,
)
from .matches import match_refresh, match_start
from .nights import (
    night_check_in,
    night_check_out,
    night_code_renew,
    night_end,
    night_pair,
    night_round_start,
    night_start,
    night_substitute,
    night_table_end,
    night_table_move,
)
from .players import (
    player_claim,
    player_claim_decide,
    player_create,
    player_link,
    player_link_named,
    player_merge,
    player_update,
)
from .seasons import season_create, season_update
from .table_tokens import table_token_issue, table_token_renew
from .tables import table_start
from .webhooks import webhook_create, webhook_delete, webhook_test, webhook_update

__all__ = [
    "Confirmer",
    "HandResult",
    "account_signup",
    "game_abandon",
    "game_end_now",
    "game_set_public",
    "game_set_scorekeeper",
    "game_snapshot",
    "game_start",
    "hand_confirm",
    "hand_correct",
    "hand_dispute",
    "hand_keep",
    "hand_record",
    "hand_undo",
    "invitation_accept",
    "invitation_create",
    "invitation_decline",
    "invitation_revoke",
    "league_create",
    "league_member_change",
    "league_member_named",
    "league_set_member",
    "league_update",
    "match_refresh",
    "match_start",
    "night_check_in",
    "night_check_out",
    "night_code_renew",
    "night_end",
    "night_pair",
    "night_round_start",
    "night_start",
    "night_substitute",
    "night_table_end",
    "night_table_move",
    "player_claim",
    "player_claim_decide",
    "player_create",
    "player_link",
    "player_link_named",
    "player_merge",
    "player_update",
    "profile_update",
    "provisional_release",
    "season_create",
    "season_update",
    "table_start",
    "table_token_issue",
    "table_token_renew",
    "webhook_create",
    "webhook_delete",
    "webhook_test",
    "webhook_update",
]

"""Every write in Scorekeeper: one transaction each, keyword-only, named ``<thing>_<action>``.

Views, API endpoints, admin actions, commands and tasks call these and nothing else to change
a game, so the rules and the permission policy are applied the same way whichever door is used.
"""

from .games import game_abandon, game_set_scorekeeper, game_snapshot, game_start
from .hands import HandResult, hand_correct, hand_record, hand_undo
from .leagues import league_create, league_set_member, league_update, player_create, player_update
from .matches import match_refresh, match_start
from .tables import table_start

__all__ = [
    "HandResult",
    "game_abandon",
    "game_set_scorekeeper",
    "game_snapshot",
    "game_start",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "league_create",
    "league_set_member",
    "league_update",
    "match_refresh",
    "match_start",
    "player_create",
    "player_update",
    "table_start",
]

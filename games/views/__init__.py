"""The site's pages: thin views over selectors (reads) and services (writes).

Every check of who may see or change something goes through ``games.policy``; every write
through ``games.services``. Forms post and redirect, so the pages work without JavaScript.
"""

from .home import home
from .leagues import league_detail, league_member
from .live import live, live_board
from .matches import match_detail
from .new_game import new_game
from .players import player_detail
from .standings import league_table
from .table import game_abandon, game_scorekeepers, hand_correct, hand_record, hand_undo, table

__all__ = [
    "game_abandon",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "home",
    "league_detail",
    "league_member",
    "league_table",
    "live",
    "live_board",
    "match_detail",
    "new_game",
    "player_detail",
    "table",
    "game_scorekeepers",
]

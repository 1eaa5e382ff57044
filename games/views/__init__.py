"""The site's pages: thin views over selectors (reads) and services (writes).

Every check of who may see or change something goes through ``games.policy``; every write
through ``games.services``. Forms post and redirect, so the pages work without JavaScript; the
script on the table page adds the offline outbox on top (``static/table.js``, ``static/outbox.js``).
"""

from .accounts import password_reset, password_reset_done
from .app import manifest, offline, service_worker
from .hands import game_abandon, hand_correct, hand_record, hand_undo
from .home import home
from .leagues import league_detail, league_member
from .live import live, live_board
from .matches import match_detail
from .new_game import new_game
from .players import player_detail
from .table import game_scorekeepers, table

__all__ = [
    "game_abandon",
    "game_scorekeepers",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "home",
    "league_detail",
    "league_member",
    "live",
    "live_board",
    "manifest",
    "match_detail",
    "new_game",
    "offline",
    "password_reset",
    "password_reset_done",
    "player_detail",
    "service_worker",
    "table",
]

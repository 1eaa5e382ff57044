"""The site's pages: thin views over selectors (reads) and services (writes).

Every check of who may see or change something goes through ``games.policy``; every write
through ``games.services``. Forms post and redirect, so the pages work without JavaScript; the
script on the table page adds the offline outbox on top (``static/table.js``, ``static/outbox.js``).
"""

from .accounts import password_reset, profile, signup
from .app import manifest, offline, service_worker, service_worker_shell
from .checks import hand_check
from .exports import (
    game_hands_csv,
    league_backup,
    league_games_csv,
    league_restore_page,
    league_restore_progress,
    league_standings_csv,
)
from .follow import follow, join
from .hands import game_abandon, hand_correct, hand_record, hand_undo
from .home import home
from .invitations import invitation, league_invitation, league_invitation_qr, league_invitations, league_leave
from .league_players import (
    league_claim_decide,
    league_player_add,
    league_player_claim,
    league_player_link,
    league_player_merge,
    league_player_unlink,
    league_players,
)
from .leagues import league_detail, league_edit, league_member, league_new
from .live import live, live_board
from .matches import match_detail
from .new_game import new_game
from .nights import night_check_in, night_code_qr, night_new, night_page
from .players import player_detail
from .seasons import league_seasons_page
from .sharing import game_sharing
from .standings import league_table
from .table import game_scorekeepers, table
from .table_code import table_code_qr, table_code_renew
from .webhooks import league_webhook, league_webhooks

__all__ = [
    "league_restore_progress",
    "league_webhooks",
    "league_webhook",
    "league_standings_csv",
    "league_restore_page",
    "league_seasons_page",
    "league_games_csv",
    "league_backup",
    "game_hands_csv",
    "game_abandon",
    "game_scorekeepers",
    "game_sharing",
    "follow",
    "hand_check",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "home",
    "invitation",
    "join",
    "league_claim_decide",
    "league_detail",
    "league_edit",
    "league_invitation",
    "league_invitation_qr",
    "league_invitations",
    "league_leave",
    "league_member",
    "league_new",
    "league_player_add",
    "league_player_claim",
    "league_player_link",
    "league_player_merge",
    "league_player_unlink",
    "league_players",
    "league_table",
    "live",
    "live_board",
    "manifest",
    "match_detail",
    "new_game",
    "night_check_in",
    "night_code_qr",
    "night_new",
    "night_page",
    "offline",
    "password_reset",
    "player_detail",
    "profile",
    "service_worker",
    "service_worker_shell",
    "signup",
    "table",
    "table_code_qr",
    "table_code_renew",
]

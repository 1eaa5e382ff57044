"""What a phone that scanned a game's table code keeps: a signed cookie holding the table token and the
seat its holder chose, sent only to that game's own pages (its path is the game's), and read back as a
``policy.TablePass`` for the policy to judge. Renewing the token ends it: the policy compares it with the
game's token as it is now, on every request."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from games.policy import TablePass
from games.rules import SEATS

SALT = "games.table-pass"
# A game night and the day after (long enough to confirm the last hands later).
MAX_AGE = 3 * 24 * 3600


def cookie_name(game_id: int) -> str:
    return f"table_{game_id}"


def table_pass(request, game_id: int) -> TablePass | None:
    """The pass this request carries for game ``game_id``, if any (forged, expired or garbled ones: none)."""
    value = request.get_signed_cookie(cookie_name(game_id), default=None, salt=SALT, max_age=MAX_AGE)
    parts = value.split(":") if value else []
    if len(parts) != 3 or parts[0] != str(game_id) or not parts[1]:
        return None
    return TablePass(game_id=game_id, token=parts[1], seat=parts[2] if parts[2] in SEATS else None)


def keep_table_pass(response, held: TablePass) -> None:
    """Give the phone ``held`` to keep, for the game's pages only."""
    response.set_signed_cookie(
        cookie_name(held.game_id), f"{held.game_id}:{held.token}:{held.seat or ''}", salt=SALT, max_age=MAX_AGE,
        path=reverse("table", args=[held.game_id]), secure=settings.SESSION_COOKIE_SECURE, httponly=True,
        samesite="Lax",
    )

"""What a resource's ETag is made of: the rows whose change would change what is shown.

Django's conditional-view machinery (``django.views.decorators.http.condition``) asks for an ETag before
a view runs and answers ``If-None-Match`` with a 304 when it matches (weakly, so a proxy's ``W/`` tag
matches too). The functions here read a resource and its version in one query, for the API and the
pages alike; the view keeps what they read for its answer, so a 200 costs no more queries than before.

A game's answer changes whenever the game row is saved (every hand, correction, undo, abandon), a
league's standings whenever the standings task writes them (it always moves the watermark), and either
whenever a player is renamed (the latest ``Player.updated_at``, anywhere: renames are rare).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Subquery

from games import policy, selectors
from games.models import Game, League, Player
from games.models.standings import StandingsWatermark


def latest_rename() -> Subquery:
    return Subquery(Player.objects.order_by("-updated_at").values("updated_at")[:1])


def etag(*parts: Any) -> str:
    """A strong ETag from the parts a representation depends on."""
    return '"' + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:24] + '"'


def game_with_version(user, game_id: int) -> Game | None:
    """The game (with its league, match and players) if ``user`` may see it, and ``renamed``: when a
    player was last renamed. One query (and the user's role, for a private league)."""
    game = (Game.objects.select_related(*selectors.GAME_RELATED).annotate(renamed=latest_rename())
            .filter(pk=game_id).first())
    if game is None or not policy.can_view_game(user, game):
        return None
    return game


def game_etag(game: Game, *variant: Any) -> str:
    return etag("game", game.pk, game.updated_at.isoformat(), game.hand_count, game.status, game.renamed, *variant)


def league_with_version(user, league_id: int) -> League | None:
    """The league if ``user`` may see it, with ``standings_at`` (when its standings were last written) and
    ``renamed``. One query."""
    watermark = StandingsWatermark.objects.filter(league=league_id).values("computed_at")[:1]
    return (policy.visible_leagues(user).filter(pk=league_id)
            .annotate(standings_at=Subquery(watermark), renamed=latest_rename()).first())


def standings_etag(league: League, *variant: Any) -> str:
    return etag("standings", league.pk, league.name, league.slug, league.standings_at, league.renamed, *variant)

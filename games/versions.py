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

from django.db.models import OuterRef, Subquery

from games import policy, selectors
from games.models import Game, League, Player, Season
from games.models.standings import StandingsWatermark
from games.standings.selectors import ALL_TIME, CURRENT, no_season, season_asked, seasons_asked


def latest_rename() -> Subquery:
    return Subquery(Player.objects.order_by("-updated_at").values("updated_at")[:1])


def etag(*parts: Any) -> str:
    """A strong ETag from the parts a representation depends on."""
    return '"' + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:24] + '"'


def game_with_version(user, game_id: int, table_pass: policy.TablePass | None = None) -> Game | None:
    """The game (with its league, match and players) if ``user`` may see it (or the ``table_pass`` their
    phone holds lets them follow it), with ``renamed``: when a player was last renamed, and ``access``:
    what they may do with it (``policy.game_access``). One query (and the user's role, for a private league)."""
    game = (Game.objects.select_related(*selectors.GAME_RELATED).annotate(renamed=latest_rename())
            .filter(pk=game_id).first())
    if game is None:
        return None
    game.access = policy.game_access(user, game, table_pass)
    return game if game.access.view else None


def game_etag(game: Game, *variant: Any) -> str:
    return etag("game", game.pk, game.updated_at.isoformat(), game.hand_count, game.status, game.renamed, *variant)


def board_etag(game: Game) -> str:
    """The spectator board's ETag (as ``live/board/`` answers it) for a game read without its version."""
    game.renamed = Player.objects.order_by("-updated_at").values_list("updated_at", flat=True).first()
    return game_etag(game, "board")


SEASON_COLUMNS = ("pk", "name", "starts_on", "ends_on", "standings_at")


def league_with_version(user, league_id: int, season: str | int | None = ALL_TIME) -> League | None:
    """The league if ``user`` may see it, with ``standings_at`` (when its standings were last written) and
    ``renamed``; and ``season``: the season asked for (``?season=``; None for all time, and when no season is
    current), with its own ``standings_at``. One query.

    Raises ``InvalidInput`` (field ``season``) for a season the league does not have.
    """
    watermark = StandingsWatermark.objects.filter(league=league_id).values("computed_at")[:1]
    leagues = (policy.visible_leagues(user).filter(pk=league_id)
               .annotate(standings_at=Subquery(watermark), renamed=latest_rename()))
    asked = season_asked(season)
    if asked != ALL_TIME:
        seasons = seasons_asked(OuterRef("pk"), asked)
        leagues = leagues.annotate(**{f"season_{name}": Subquery(seasons.values(name)[:1]) for name in SEASON_COLUMNS})
    league = leagues.first()
    if league is None:
        return None
    league.season = None
    if asked != ALL_TIME:
        if league.season_pk is None:
            if asked != CURRENT:
                raise no_season(league, asked)
        else:
            league.season = Season(pk=league.season_pk, league=league, name=league.season_name,
                                   starts_on=league.season_starts_on, ends_on=league.season_ends_on)
            league.season.standings_at = league.season_standings_at
    return league


def season_version(season) -> tuple[Any, ...]:
    """What a season's standings' ETag adds: which season (the default one changes at its dates' edges), its
    name and dates, and when its rows were last written (``standings_at``, read with it)."""
    if season is None:
        return ("all",)
    return (season.pk, season.name, season.starts_on, season.ends_on, getattr(season, "standings_at", None))


def standings_etag(league: League, *variant: Any) -> str:
    return etag("standings", league.pk, league.name, league.slug, league.standings_at, league.renamed, *variant)

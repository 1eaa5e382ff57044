"""What a resource's ETag is made of: the rows whose change would change what is shown.

Django's conditional-view machinery (``django.views.decorators.http.condition``) asks for an ETag before
a view runs and answers ``If-None-Match`` with a 304 when it matches (weakly, so a proxy's ``W/`` tag
matches too). The functions here read a resource and its version in one query, for the API and the
pages alike; the view keeps what they read for its answer, so a 200 costs no more queries than before.

A game's answer changes whenever the game row is saved (every hand, correction, undo, abandon), a
league's standings whenever the standings task writes them (it always moves the watermark), and either
whenever a player is renamed (the latest ``Player.updated_at``, anywhere: renames are rare).

A page showing a game asks every couple of seconds whether it changed, and nearly always it has not: that
question (``game_version``, ``night_version_for``) is one statement written once (and on PostgreSQL prepared
once a connection), reading the version and what the policy needs to judge the viewer (the league's visibility,
their role, the seats' accounts, the table token) and nothing else, so that a 304 neither loads the game's players
nor builds a query. The answer is judged by the same ``policy.game_access`` as every other door.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import policy, selectors, statements
from games.models import Game, League, Night, Player, Season
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


# A game's version and what the policy asks to judge its viewer (``%s``: the viewer's user id, or NULL; then the
# game's id). The seats' players are joined for their accounts only (a seated user sees the game and their side).
GAME_VERSION_SQL = """
SELECT g.updated_at, g.hand_count, g.status, g.league_id, g.is_public, g.created_by_id, g.table_token,
       g.north_id, g.east_id, g.south_id, g.west_id, n.user_id, e.user_id, s.user_id, w.user_id, l.is_public,
       (SELECT r.updated_at FROM games_player r ORDER BY r.updated_at DESC LIMIT 1),
       (SELECT m.role FROM games_membership m WHERE m.league_id = g.league_id AND m.user_id = %s)
FROM games_game g
JOIN games_player n ON n.id = g.north_id
JOIN games_player e ON e.id = g.east_id
JOIN games_player s ON s.id = g.south_id
JOIN games_player w ON w.id = g.west_id
LEFT JOIN games_league l ON l.id = g.league_id
WHERE g.id = %s
"""


def as_datetime(value: Any) -> datetime | None:
    """A timestamp read by a raw statement as the ORM reads it: aware, in UTC (SQLite gives it naive, or as text)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if isinstance(value, datetime) and timezone.is_naive(value):
        return value.replace(tzinfo=UTC)
    return value


def game_version(user, game_id: int, table_pass: policy.TablePass | None = None) -> Game | None:
    """What ``game_with_version`` answers for a poll: the game (its version, ``renamed`` and ``access`` as there)
    if ``user`` may see it, in one statement, without its players, league or match loaded (the game it gives
    has their ids, and each seat's account). Enough for ``game_etag`` and the policy; not for drawing it."""
    if not 0 < game_id <= selectors.MAX_ID:
        return None
    with statements.cursor() as cursor:  # prepared: asked every couple of seconds by every phone following
        cursor.execute(GAME_VERSION_SQL, [user.pk, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (updated_at, hand_count, status, league_id, is_public, created_by_id, table_token, *seated) = row[:15]
    seat_ids, seat_users = seated[:4], seated[4:8]
    league_public, renamed, role = row[15:18]
    game = Game(pk=game_id, updated_at=as_datetime(updated_at), hand_count=hand_count, status=status,
                league_id=league_id, is_public=bool(is_public), created_by_id=created_by_id,
                table_token=table_token, options={})
    for name, player_id, user_id in zip(selectors.SEATED, seat_ids, seat_users, strict=True):
        setattr(game, name, Player(pk=player_id, user_id=user_id))
    if league_id is not None:
        game.league = League(pk=league_id, is_public=bool(league_public))
        policy.remember_role(user, game.league, role)
    else:
        game.league = None
    game.renamed = as_datetime(renamed)
    game.access = policy.game_access(user, game, table_pass)
    return game if game.access.view else None


# A club night's version (``games.nights.night_version``'s parts) and what the policy asks to see it (``%s``: the
# night's id, the viewer's user id or NULL, the night's id).
NIGHT_VERSION_SQL = """
SELECT v.updated_at, v.round_end, v.status, v.league_id, l.is_public, played.changed, played.games,
       (SELECT r.updated_at FROM games_player r ORDER BY r.updated_at DESC LIMIT 1),
       (SELECT m.role FROM games_membership m WHERE m.league_id = v.league_id AND m.user_id = %s)
FROM games_night v
JOIN games_league l ON l.id = v.league_id
CROSS JOIN (SELECT MAX(g.updated_at) AS changed, COUNT(g.id) AS games
            FROM games_game g
            JOIN games_nighttable t ON t.game_id = g.id
            JOIN games_nightround o ON o.id = t.round_id
            WHERE o.night_id = %s) AS played
WHERE v.id = %s
"""


def night_with_version(user, night_id: int) -> Night | None:
    """The club night if ``user`` may see it (as ``games.nights.night_for`` finds it), with ``version``: what its
    live pages' ETag is made of (``games.nights.night_version``), in one statement, without its league loaded
    (the night it gives has the league's id and visibility). Enough for the room board's ETag; not for drawing it."""
    if not 0 < night_id <= selectors.MAX_ID:
        return None
    with statements.cursor() as cursor:  # prepared, as a game's
        cursor.execute(NIGHT_VERSION_SQL, [user.pk, night_id, night_id])
        row = cursor.fetchone()
    if row is None:
        return None
    updated_at, round_end, status, league_id, league_public, changed, games, renamed, role = row
    league = League(pk=league_id, is_public=bool(league_public))
    policy.remember_role(user, league, role)
    if not policy.can_view_league(user, league):
        return None
    night = Night(pk=night_id, updated_at=as_datetime(updated_at), round_end=round_end, status=status, league=league,
                  options={}, code="")
    night.version = (night.pk, night.updated_at.isoformat(), as_datetime(changed), games, as_datetime(renamed))
    return night


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

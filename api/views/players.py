from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from api.serializers.people import NewPlayerIn, PlayerDetailOut, PlayerIn, PlayerOut
from api.serializers.seasons import SeasonFilter
from api.serializers.standings import PlayerRatingHistoryOut, PlayerRecordsFilter, PlayerRecordsOut
from games import policy, services
from games.models import Player, Season
from games.standings.head_to_head import player_records_view
from games.standings.selectors import ALL_TIME, CURRENT, SEASON_ID, player_figures, player_ratings

from .base import (
    IDEMPOTENCY_KEY,
    LOCATION,
    ApiView,
    created,
    idempotency_key,
    league_to_play_in,
    one,
    visible_league_filter,
)


def player_body(user, player: Player, season: Season | str | None = None) -> dict:
    """The player with their ratings and figures in the leagues ``user`` may see (all time, or ``season``'s):
    three queries."""
    leagues = policy.visible_leagues(user)
    return PlayerDetailOut({
        "id": player.pk, "name": player.name, "created_at": player.created_at,
        "ratings": player_ratings(player=player, leagues=leagues, history=False, season=season),
        "figures": player_figures(player=player, leagues=leagues, season=season),
    }).data


def season_asked(request) -> Season | str | None:
    """``?season=`` of a player's figures: None (``all``, or none given), ``"current"`` (each league's current
    season) or a season of a league the user may see (else a 404); anything else is a 400."""
    season = SeasonFilter(data=request.query_params)
    season.is_valid(raise_exception=True)
    value = season.validated_data.get("season", ALL_TIME)
    if value in (ALL_TIME, CURRENT):
        return None if value == ALL_TIME else CURRENT
    found = None
    if SEASON_ID.fullmatch(value):
        found = Season.objects.filter(pk=int(value), league__in=policy.visible_leagues(request.user)
                                      .values("pk")).first()
    if found is None:
        raise NotFound(f"there is no season {value}")
    return found


def visible_player(user, pk: int) -> Player:
    return one(policy.visible_players(user), pk, "player")


class PlayerList(ApiView):
    """Players you may see: those of the leagues and casual games you may see, and those you added.

    A player of private leagues only is invisible to anyone outside them.
    """

    @extend_schema(responses=PlayerOut(many=True), tags=["players"])
    def get(self, request):
        visible = policy.visible_players(request.user).values("pk")
        return self.page(Player.objects.filter(pk__in=visible).order_by("name", "id"), PlayerOut)

    @extend_schema(request=NewPlayerIn, responses={201: PlayerOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["players"])
    def post(self, request):
        """Add a player: one of a league's (its owners and scorekeepers), or someone for your casual games."""
        key = idempotency_key(request)
        data = self.parse(NewPlayerIn)
        data["league"] = league_to_play_in(request.user, data["league"])
        player = services.player_create(by=request.user, idempotency_key=key, **data)
        return created(PlayerOut(player).data, "api-player", player.pk)


class PlayerDetail(ApiView):
    """A player, with their rating and figures in each league and game type (only leagues you may see): all
    time, or one season's (`?season=`)."""

    @extend_schema(parameters=[SeasonFilter], responses=PlayerDetailOut, tags=["players"])
    def get(self, request, pk: int):
        player = visible_player(request.user, pk)
        return Response(player_body(request.user, player, season_asked(request)))

    def change(self, request, pk: int, *, partial: bool):
        player = visible_player(request.user, pk)
        name = self.parse(PlayerIn, partial=partial).get("name")
        player = services.player_update(player=player, name=name, by=request.user)
        return Response(player_body(request.user, player))

    @extend_schema(request=PlayerIn, responses=PlayerDetailOut, tags=["players"])
    def put(self, request, pk: int):
        return self.change(request, pk, partial=False)

    @extend_schema(request=PlayerIn, responses=PlayerDetailOut, tags=["players"])
    def patch(self, request, pk: int):
        """Change only the fields sent (an empty body changes nothing)."""
        return self.change(request, pk, partial=True)


class PlayerRatings(ApiView):
    """A player's ratings with their history (oldest first), per league and game type, in leagues you may see."""

    pagination_class = None  # one entry per league and game type

    @extend_schema(parameters=[SeasonFilter], responses=PlayerRatingHistoryOut(many=True), tags=["players"])
    def get(self, request, pk: int):
        player = visible_player(request.user, pk)
        ratings = player_ratings(player=player, leagues=policy.visible_leagues(request.user), history=True,
                                 season=season_asked(request))
        return Response(PlayerRatingHistoryOut(ratings, many=True).data)


def records_period(request, filters: dict, league: int | None) -> tuple[int | None, Any, Any]:
    """The league and the days a player's records count games from and until (either may be None): the days
    asked for, or a season's (``?season=``: a season's id, which is then the league too; ``current`` with a
    ``league``: that league's current season). Asking for both is a 400 on ``season``."""
    season = season_asked(request)
    if season is None:
        return league, filters.get("finished_from"), filters.get("finished_until")
    if filters.get("finished_from") or filters.get("finished_until"):
        raise ValidationError({"season": ["a season or days (finished_from, finished_until), not both"]})
    if isinstance(season, str):  # CURRENT
        if league is None:
            raise ValidationError({"season": ["`current` is a league's: give `league` too"]})
        season = Season.objects.filter(league=league).current().first()
        if season is None:
            raise NotFound(f"league {league} has no current season")
    elif league is not None and league != season.league_id:
        raise ValidationError({"season": [f"season {season.pk} is not one of league {league}'s"]})
    return season.league_id, season.starts_on, season.ends_on


class PlayerRecords(ApiView):
    """A player's head-to-head and partner records: with each partner and against each opponent, per game type.

    Counted from the finished games you may see (docs/standings.md, "Head-to-head and partner records"):
    a private league's games only for its members, casual games for their players and scorekeepers unless
    shared. Filtered by `league`, `game_type` and the days games finished.
    """

    pagination_class = None  # one entry per game type

    @extend_schema(parameters=[PlayerRecordsFilter, SeasonFilter], responses=PlayerRecordsOut, tags=["players"])
    def get(self, request, pk: int):
        player = visible_player(request.user, pk)
        filters = self.parse(PlayerRecordsFilter, data=request.query_params)
        league, finished_from, finished_until = records_period(
            request, filters, visible_league_filter(request.user, filters.get("league")))
        body = player_records_view(player=player, user=request.user, league=league, game_type=filters.get("game_type"),
                                   finished_from=finished_from, finished_until=finished_until)
        body.update(player={"id": player.pk, "name": player.name},
                    filters={"league": league, "game_type": filters.get("game_type"),
                             "finished_from": finished_from, "finished_until": finished_until})
        return Response(PlayerRecordsOut(body).data)

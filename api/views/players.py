from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from api.serializers.people import NewPlayerIn, PlayerDetailOut, PlayerIn, PlayerOut
from api.serializers.seasons import SeasonFilter
from api.serializers.standings import PlayerRatingHistoryOut
from games import policy, services
from games.models import Player, Season
from games.standings.selectors import ALL_TIME, CURRENT, SEASON_ID, player_figures, player_ratings

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, idempotency_key, league_to_play_in, one


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

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.serializers.people import NewPlayerIn, PlayerDetailOut, PlayerIn, PlayerOut
from api.serializers.standings import PlayerRatingHistoryOut
from games import policy, services
from games.models import Player
from games.standings.selectors import player_figures, player_ratings

from .base import ApiView, league_to_play_in, one


def player_body(user, player: Player) -> dict:
    """The player with their ratings and figures in the leagues ``user`` may see: three queries."""
    leagues = policy.visible_leagues(user)
    return PlayerDetailOut({
        "id": player.pk, "name": player.name, "created_at": player.created_at,
        "ratings": player_ratings(player=player, leagues=leagues, history=False),
        "figures": player_figures(player=player, leagues=leagues),
    }).data


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

    @extend_schema(request=NewPlayerIn, responses={201: PlayerOut}, tags=["players"])
    def post(self, request):
        """Add a player: one of a league's (its owners and scorekeepers), or someone for your casual games."""
        data = self.parse(NewPlayerIn)
        data["league"] = league_to_play_in(request.user, data["league"])
        player = services.player_create(by=request.user, **data,
                                        idempotency_key=request.headers.get("Idempotency-Key"))
        return Response(PlayerOut(player).data, status=status.HTTP_201_CREATED)


class PlayerDetail(ApiView):
    """A player, with their rating and figures in each league and game type (only leagues you may see)."""

    @extend_schema(responses=PlayerDetailOut, tags=["players"])
    def get(self, request, pk: int):
        return Response(player_body(request.user, visible_player(request.user, pk)))

    @extend_schema(request=PlayerIn, responses=PlayerDetailOut, tags=["players"])
    def put(self, request, pk: int):
        player = visible_player(request.user, pk)
        player = services.player_update(player=player, name=self.parse(PlayerIn)["name"], by=request.user)
        return Response(player_body(request.user, player))

    @extend_schema(request=PlayerIn, responses=PlayerDetailOut, tags=["players"])
    def patch(self, request, pk: int):
        return self.put(request, pk)


class PlayerRatings(ApiView):
    """A player's ratings with their history (oldest first), per league and game type, in leagues you may see."""

    pagination_class = None  # one entry per league and game type

    @extend_schema(responses=PlayerRatingHistoryOut(many=True), tags=["players"])
    def get(self, request, pk: int):
        player = visible_player(request.user, pk)
        ratings = player_ratings(player=player, leagues=policy.visible_leagues(request.user), history=True)
        return Response(PlayerRatingHistoryOut(ratings, many=True).data)

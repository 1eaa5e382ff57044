from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.serializers.people import PlayerDetailOut, PlayerIn, PlayerOut
from api.serializers.standings import PlayerRatingHistoryOut
from games import policy, services
from games.models import Player
from games.standings.selectors import player_figures, player_ratings

from .base import ApiView, one


def player_body(user, player: Player) -> dict:
    """The player with their ratings and figures in the leagues ``user`` may see: three queries."""
    leagues = policy.visible_leagues(user)
    return PlayerDetailOut({
        "id": player.pk, "name": player.name, "created_at": player.created_at,
        "ratings": player_ratings(player=player, leagues=leagues, history=False),
        "figures": player_figures(player=player, leagues=leagues),
    }).data


class PlayerList(ApiView):
    """Players: people who sit at a table (they need no account)."""

    @extend_schema(responses=PlayerOut(many=True), tags=["players"])
    def get(self, request):
        return self.page(Player.objects.order_by("name", "id"), PlayerOut)

    @extend_schema(request=PlayerIn, responses={201: PlayerOut}, tags=["players"])
    def post(self, request):
        player = services.player_create(name=self.parse(PlayerIn)["name"], by=request.user)
        return Response(PlayerOut(player).data, status=status.HTTP_201_CREATED)


class PlayerDetail(ApiView):
    """A player, with their rating and figures in each league and game type (only leagues you may see)."""

    @extend_schema(responses=PlayerDetailOut, tags=["players"])
    def get(self, request, pk: int):
        return Response(player_body(request.user, one(Player.objects.all(), pk, "player")))

    @extend_schema(request=PlayerIn, responses=PlayerDetailOut, tags=["players"])
    def put(self, request, pk: int):
        player = one(Player.objects.all(), pk, "player")
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
        player = one(Player.objects.all(), pk, "player")
        ratings = player_ratings(player=player, leagues=policy.visible_leagues(request.user), history=True)
        return Response(PlayerRatingHistoryOut(ratings, many=True).data)

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.serializers.people import PlayerIn, PlayerOut
from games import services
from games.models import Player

from .base import ApiView, one


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
    @extend_schema(responses=PlayerOut, tags=["players"])
    def get(self, request, pk: int):
        return Response(PlayerOut(one(Player.objects.all(), pk, "player")).data)

    @extend_schema(request=PlayerIn, responses=PlayerOut, tags=["players"])
    def put(self, request, pk: int):
        player = one(Player.objects.all(), pk, "player")
        player = services.player_update(player=player, name=self.parse(PlayerIn)["name"], by=request.user)
        return Response(PlayerOut(player).data)

    @extend_schema(request=PlayerIn, responses=PlayerOut, tags=["players"])
    def patch(self, request, pk: int):
        return self.put(request, pk)

"""A league's players: the list, adding one, linking one to a member, merging two, and members' claims."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.serializers.club import ClaimOut, DecisionIn, LeaguePlayerIn, LeaguePlayerOut, LinkIn, MergeIn
from games import policy, services
from games.errors import NotAllowed
from games.models import PlayerClaim

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, idempotency_key, one
from .leagues import visible_league


def league_player(league, pk: int, what: str = "player"):
    return one(league.players.select_related("user"), pk, what)


class LeaguePlayers(ApiView):
    """The league's players (who may sit at its tables), with whether an account claimed each."""

    @extend_schema(responses=LeaguePlayerOut(many=True), tags=["leagues"])
    def get(self, request, pk: int):
        league = visible_league(request.user, pk)
        return self.page(league.players.select_related("user").order_by("name", "id"), LeaguePlayerOut)

    @extend_schema(request=LeaguePlayerIn, responses={201: LeaguePlayerOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["leagues"])
    def post(self, request, pk: int):
        league = visible_league(request.user, pk)
        key = idempotency_key(request)
        data = self.parse(LeaguePlayerIn)
        player = services.player_create(name=data["name"], league=league, allow_similar=data["allow_similar"],
                                        by=request.user, idempotency_key=key)
        return created(LeaguePlayerOut(player).data, "api-player", player.pk)


class LeaguePlayerLink(ApiView):
    """An owner links the player to a member's account (`username`), or unlinks it (`null`)."""

    @extend_schema(request=LinkIn, responses=LeaguePlayerOut, tags=["leagues"])
    def post(self, request, pk: int, player_id: int):
        league = visible_league(request.user, pk)
        player = league_player(league, player_id)
        username = self.parse(LinkIn)["username"]
        return Response(LeaguePlayerOut(services.player_link_named(league=league, player=player, username=username,
                                                                   by=request.user)).data)


class LeaguePlayerMerge(ApiView):
    """Two records of one person become one: `merge`'s games, standings and ratings become `keep`'s."""

    @extend_schema(request=MergeIn, responses=LeaguePlayerOut, tags=["leagues"])
    def post(self, request, pk: int):
        league = visible_league(request.user, pk)
        data = self.parse(MergeIn)
        if not policy.can_manage_league(request.user, league):
            raise NotAllowed("only the league's owners can merge its players")
        keep = league_player(league, data["keep"])
        merge = league_player(league, data["merge"])
        return Response(LeaguePlayerOut(services.player_merge(league=league, keep=keep, merge=merge,
                                                              by=request.user)).data)


class LeaguePlayerClaim(ApiView):
    """A member says "that's me": a claim the league's owners approve or decline."""

    @extend_schema(request=None, responses={202: ClaimOut}, tags=["leagues"])
    def post(self, request, pk: int, player_id: int):
        league = visible_league(request.user, pk)
        claim = services.player_claim(league=league, player=league_player(league, player_id), by=request.user)
        return Response(ClaimOut(claim).data, status=status.HTTP_202_ACCEPTED)


class LeagueClaims(ApiView):
    """Claims waiting for the league's owners."""

    @extend_schema(responses=ClaimOut(many=True), tags=["leagues"])
    def get(self, request, pk: int):
        league = visible_league(request.user, pk)
        if not policy.can_manage_league(request.user, league):
            raise NotAllowed("only the league's owners see claims to its players")
        claims = (PlayerClaim.objects.filter(league=league, status=PlayerClaim.Status.PENDING)
                  .select_related("player", "user").order_by("created_at", "id"))
        return self.page(claims, ClaimOut)


class LeagueClaim(ApiView):
    @extend_schema(request=DecisionIn, responses=ClaimOut, tags=["leagues"])
    def post(self, request, pk: int, claim_id: int):
        """Approve (the user becomes the player) or decline a claim."""
        league = visible_league(request.user, pk)
        claim = one(PlayerClaim.objects.filter(league=league).select_related("league", "player", "user"),
                    claim_id, "claim")
        decided = services.player_claim_decide(claim=claim, approve=self.parse(DecisionIn)["approve"],
                                               by=request.user)
        return Response(ClaimOut(decided).data)

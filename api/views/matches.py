from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.serializers.games import MatchIn, MatchOut
from games import selectors, services

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, idempotency_key, league_to_play_in, one


class MatchList(ApiView):
    """Matches of a game played in matches (Trumps: three games, partners rotating so that everyone partners
    everyone once)."""

    @extend_schema(responses=MatchOut(many=True), tags=["matches"])
    def get(self, request):
        page = self.paginate_queryset(selectors.matches_for(user=request.user))
        return self.get_paginated_response(MatchOut(selectors.with_player_rows(page), many=True).data)

    @extend_schema(request=MatchIn, responses={201: MatchOut}, parameters=[IDEMPOTENCY_KEY, LOCATION], tags=["matches"])
    def post(self, request):
        key = idempotency_key(request)
        data = self.parse(MatchIn)
        data["league"] = league_to_play_in(request.user, data["league"])
        match = services.match_start(by=request.user, idempotency_key=key, **data)
        return created(match_body(request.user, match.pk), "api-match", match.pk)


def match_body(user, pk: int) -> dict:
    match = one(selectors.matches_for(user=user), pk, "match")
    return MatchOut(selectors.with_player_rows([match])[0]).data


class MatchDetail(ApiView):
    @extend_schema(responses=MatchOut, tags=["matches"])
    def get(self, request, pk: int):
        return Response(match_body(request.user, pk))

"""A league's seasons: anyone who may see the league reads them; its owners create, rename, re-date and close
them (anyone else gets a 403; a private league is a 404 to outsiders)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.serializers.seasons import SeasonIn, SeasonOut, SeasonUpdate
from games import services
from games.models import Season

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, idempotency_key, one
from .leagues import visible_league


def league_season(user, pk: int, season_id: int) -> Season:
    league = visible_league(user, pk)
    return one(Season.objects.filter(league=league).select_related("league"), season_id, "season")


class SeasonList(ApiView):
    """The league's seasons, the latest first. POST (owners) creates one, or, without `starts_on`, starts the
    next: the open season is closed (today, or on `close_previous_on`) and the new one starts the day after.

    Refused, changing nothing: dates overlapping another season of the league (409), an end before the start
    or a name the league already has (400).
    """

    error_statuses = (409,)

    @extend_schema(responses=SeasonOut(many=True), tags=["seasons"])
    def get(self, request, pk: int):
        league = visible_league(request.user, pk)
        return self.page(Season.objects.filter(league=league).order_by("-starts_on", "-id"), SeasonOut)

    @extend_schema(request=SeasonIn, responses={201: SeasonOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["seasons"])
    def post(self, request, pk: int):
        league = visible_league(request.user, pk)
        key = idempotency_key(request)
        season = services.season_create(league=league, by=request.user, idempotency_key=key,
                                        **self.parse(SeasonIn))
        return created(SeasonOut(season).data, "api-season", league.pk, season.pk)


class SeasonDetail(ApiView):
    """One season. PATCH (owners) renames it, changes its dates (`ends_on: null` opens it again) or closes it
    (`close: true`: it ends today, or on `ends_on`); new dates are counted in its standings a moment later."""

    error_statuses = (409,)

    @extend_schema(responses=SeasonOut, tags=["seasons"])
    def get(self, request, pk: int, season_id: int):
        return Response(SeasonOut(league_season(request.user, pk, season_id)).data)

    @extend_schema(request=SeasonUpdate, responses=SeasonOut, tags=["seasons"])
    def patch(self, request, pk: int, season_id: int):
        season = league_season(request.user, pk, season_id)
        season = services.season_update(season=season, by=request.user, **self.parse(SeasonUpdate, partial=True))
        return Response(SeasonOut(season).data)

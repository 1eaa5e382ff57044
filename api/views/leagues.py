from __future__ import annotations

from django.utils.decorators import method_decorator
from django.views.decorators.http import condition
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from api.renderers import OffersCSV
from api.serializers.club import InvitationOut
from api.serializers.common import MAX_ID
from api.serializers.exports import StandingsTableFilter
from api.serializers.people import LeagueIn, LeagueOut, LeagueUpdate, MemberIn, MemberOut, RoleIn
from api.serializers.standings import LeagueStandingsOut, StandingsFilter
from games import policy, services, versions
from games.exports import standings_table
from games.models import Invitation, Membership
from games.rules import shown
from games.standings.selectors import chosen_season, standings_page

from .base import IDEMPOTENCY_KEY, IF_NONE_MATCH, LOCATION, ApiView, created, idempotency_key, one, path_text


def visible_league(user, pk: int):
    return one(policy.visible_leagues(user), pk, "league")


class LeagueList(ApiView):
    """Leagues you can see: every public league, and the private ones you belong to."""

    @extend_schema(responses=LeagueOut(many=True), tags=["leagues"])
    def get(self, request):
        return self.page(policy.visible_leagues(request.user).order_by("name", "id"), LeagueOut)

    @extend_schema(request=LeagueIn, responses={201: LeagueOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["leagues"])
    def post(self, request):
        key = idempotency_key(request)
        league = services.league_create(by=request.user, idempotency_key=key, **self.parse(LeagueIn))
        return created(LeagueOut(league).data, "api-league", league.pk)


class LeagueDetail(ApiView):
    @extend_schema(responses=LeagueOut, tags=["leagues"])
    def get(self, request, pk: int):
        return Response(LeagueOut(visible_league(request.user, pk)).data)

    @extend_schema(request=LeagueUpdate, responses=LeagueOut, tags=["leagues"])
    def patch(self, request, pk: int):
        league = visible_league(request.user, pk)
        league = services.league_update(league=league, by=request.user, **self.parse(LeagueUpdate))
        return Response(LeagueOut(league).data)

    @extend_schema(request=LeagueUpdate, responses=LeagueOut, tags=["leagues"])
    def put(self, request, pk: int):
        return self.patch(request, pk)


def members_context(user, league) -> dict:
    return {"usernames": policy.can_see_usernames(user, league)}


def change_answer(done, request, league, code: int = status.HTTP_200_OK) -> Response:
    """A membership changed at once (``code``), or an invitation the person must accept (202)."""
    if isinstance(done, Invitation):
        return Response(InvitationOut(done, context={"request": request}).data, status=status.HTTP_202_ACCEPTED)
    return Response(MemberOut(done, context=members_context(request.user, league)).data, status=code)


class MemberList(ApiView):
    """A league's members and their roles (owner, scorekeeper, member). Only owners change them.

    Usernames are shown to the league's own members only; anyone else sees display names.
    """

    error_statuses = (409,)  # the league's last owner cannot step down

    @extend_schema(responses=MemberOut(many=True), tags=["leagues"])
    def get(self, request, pk: int):
        league = visible_league(request.user, pk)
        members = Membership.objects.filter(league=league).select_related("user").order_by("role", "user__username")
        page = self.paginate_queryset(members)
        return self.get_paginated_response(
            MemberOut(page, many=True, context=members_context(request.user, league)).data)

    @extend_schema(request=MemberIn, responses={202: InvitationOut, 200: MemberOut}, tags=["leagues"])
    def post(self, request, pk: int):
        """Invite a user by login name with a role: 202 and the invitation they accept. (A lower role for a
        member takes effect at once: 200.) A name with no account is answered alike: its invitation reaches
        nobody, so the answer never tells which login names exist."""
        league = visible_league(request.user, pk)
        data = self.parse(MemberIn)
        # A login name with no account gets the same answer as one with an account: an invitation.
        done = services.league_member_named(league=league, username=data["username"], role=data["role"],
                                            by=request.user)
        return change_answer(done, request, league)


class MemberDetail(ApiView):
    error_statuses = (409,)  # the league's last owner cannot step down or leave

    def member(self, request, pk: int, username: str) -> Membership:
        league = visible_league(request.user, pk)
        username = path_text(username, "member")
        membership = Membership.objects.filter(league=league, user__username=username).select_related(
            "user", "league").first()
        # Looking a member up by login name is for the league's own members.
        if membership is None or not policy.can_see_usernames(request.user, league):
            raise NotFound(f"{shown(username)} is not a member of this league")
        return membership

    @extend_schema(responses=MemberOut, tags=["leagues"])
    def get(self, request, pk: int, username: str):
        return Response(MemberOut(self.member(request, pk, username)).data)

    def change(self, request, pk: int, username: str, *, partial: bool):
        current = self.member(request, pk, username)
        role = self.parse(RoleIn, partial=partial).get("role", current.role)
        done = services.league_member_change(league=current.league, user=current.user, role=role, by=request.user)
        return change_answer(done, request, current.league)

    @extend_schema(request=RoleIn, responses={200: MemberOut, 202: InvitationOut}, tags=["leagues"])
    def put(self, request, pk: int, username: str):
        """A lower role takes effect at once (200); a higher one is an invitation they accept (202)."""
        return self.change(request, pk, username, partial=False)

    @extend_schema(request=RoleIn, responses={200: MemberOut, 202: InvitationOut}, tags=["leagues"])
    def patch(self, request, pk: int, username: str):
        """Change only the fields sent (an empty body changes nothing, but is still checked as the owners')."""
        return self.change(request, pk, username, partial=True)

    @extend_schema(request=None, responses={204: None}, tags=["leagues"])
    def delete(self, request, pk: int, username: str):
        """Remove the member (owners), or leave the league (yourself)."""
        current = self.member(request, pk, username)
        services.league_set_member(league=current.league, user=current.user, role=None, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def standings_version(request, pk: int) -> str | None:
    """The standings' ETag (the page and the season asked for included), the league and the season kept on
    the request for the answer."""
    league = (versions.league_with_version(request.user, pk, season=request.query_params.get("season"))
              if 0 < pk <= MAX_ID else None)
    request.versioned = league
    if league is None:
        return None
    season = request.season = league.season
    return versions.standings_etag(league, request.accepted_renderer.format, sorted(request.query_params.lists()),
                                   *versions.season_version(season))


class LeagueStandings(OffersCSV, ApiView):
    """The league's tables per game type: players (with their rating) and partnerships, a page at a time.

    Of one season (`?season=`): by default the current one, or all time when no season contains today.

    Computed in the background after every finished game (docs/standings.md); ``computed_at`` says when.
    Sent with ``If-None-Match`` and the ETag of an earlier answer, unchanged standings are a 304.

    As CSV (`Accept: text/csv` or `?format=csv`): one line per player (or, with `table=partnerships`, per
    partnership), game type after game type.
    """

    @extend_schema(parameters=[StandingsTableFilter, IF_NONE_MATCH], responses={200: LeagueStandingsOut, 304: None},
                   tags=["leagues"])
    def get(self, request, pk: int):
        # Checked for JSON too: a ``table`` that is not one is a mistake in the query, whatever the format.
        filters = self.parse(StandingsTableFilter, data=request.query_params)
        if self.wants_csv():
            league = visible_league(request.user, pk)
            season = chosen_season(league=league, season=filters.get("season"))
            return Response(standings_table(league=league, game_type=filters.get("game_type"),
                                            partnerships=filters["table"] == "partnerships", season=season))
        return self.tables(request, pk)

    @method_decorator(condition(etag_func=standings_version))
    def tables(self, request, pk: int):
        query = self.parse(StandingsFilter, data=request.query_params)
        if request.versioned is None:
            raise NotFound(f"there is no league {pk}")
        page, size = query["page"], query["page_size"]
        body = standings_page(league=request.versioned, game_type=query.get("game_type"), page=page, page_size=size,
                              season=request.season)
        url = request.build_absolute_uri()
        more, sizes = body.pop("more"), body.pop("sizes")
        body.update(page=page, page_size=size, sizes=sizes,
                    next=replace_query_param(url, "page", page + 1) if more else None,
                    previous=replace_query_param(url, "page", page - 1) if page > 1 else None)
        # Sent as the selector built it, in LeagueStandingsOut's shape (tests/api/test_api_standings_pages.py holds
        # them equal): passing its hundreds of lines through the serializer's fields took longer (16-27 ms at a
        # page of 400 lines) than reading them.
        return Response(body)

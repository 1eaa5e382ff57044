"""Club nights: a league's nights (the list, starting one), one night with its rounds, tables and standings, and
running it: check-in (by the organiser, or by a player with the night's code), check-out, pairing, the next round,
a substitute, moving a table, ending a table's game or the night, a new code; and its results as CSV
(docs/api.md, "Club nights"; docs/club-night.md).

Every write answers with the night as it now stands. The one lookup is ``games.nights.night_for``: a night of a
league you may not see is a 404, one you see but may not run a 403, before the body is looked at.
"""

from __future__ import annotations

from django.utils.decorators import method_decorator
from django.views.decorators.http import condition
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated, NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.renderers import CSVRenderer
from api.serializers.common import MAX_ID
from api.serializers.nights import (
    CheckInIn,
    NightDetailOut,
    NightEndIn,
    NightIn,
    NightOut,
    NightPlayerIn,
    PairIn,
    RoundIn,
    SubstituteIn,
    TableEndIn,
    TableMoveIn,
    night_body,
)
from games import policy, services, versions
from games.errors import NotFound as NoSuchNight
from games.exports import night_results_table
from games.models import Night
from games.nights import night_by_code, night_for, night_version, night_view

from .base import IDEMPOTENCY_KEY, IF_NONE_MATCH, LOCATION, ApiView, created, idempotency_key
from .leagues import visible_league

TAGS = ["nights"]


def night_answer(request, night: Night) -> dict:
    """The night as it now stands, its code shown to its organisers only."""
    night = Night.objects.select_related("league").get(pk=night.pk)
    return night_body(night_view(night), organiser=policy.can_run_night(request.user, night.league))


def night_to_run(request, pk: int) -> Night:
    """The night, if the user may run it (404: not to be seen; 403: seen, not run)."""
    return night_for(request.user, pk, need="run")


class LeagueNights(ApiView):
    """A league's club nights, newest first; its owners and scorekeepers start one."""

    @extend_schema(responses=NightOut(many=True), tags=TAGS)
    def get(self, request, pk: int):
        league = visible_league(request.user, pk)
        return self.page(Night.objects.filter(league=league).order_by("-created_at", "-id"), NightOut)

    @extend_schema(request=NightIn, responses={201: NightDetailOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=TAGS)
    def post(self, request, pk: int):
        """Start a club night: players then check in, and each round is seated by the movement."""
        league = visible_league(request.user, pk)
        key = idempotency_key(request)
        night = services.night_start(league=league, by=request.user, idempotency_key=key, **self.parse(NightIn))
        return created(night_answer(request, night), "api-night", night.pk)


def night_etag(request, pk: int) -> str | None:
    """The night's ETag (what its organisers see differs: the code), the night kept on the request for the
    answer; None (no ETag) for a night not to be seen."""
    try:
        night = night_for(request.user, pk) if 0 < pk <= MAX_ID else None
    except NoSuchNight:
        night = None
    request.versioned = night
    if night is None:
        return None
    request.organiser = policy.can_run_night(request.user, night.league)
    return versions.etag("night", *night_version(night), request.organiser)


class NightDetail(ApiView):
    """A club night: its players, its rounds with each table's game (its id: the hands are recorded at
    `games/{id}/hands/`), seats and progress, and its standings. Sent with `If-None-Match` and the ETag of an
    earlier answer, an unchanged night is a 304 with no body."""

    @extend_schema(parameters=[IF_NONE_MATCH], responses={200: NightDetailOut, 304: None}, tags=TAGS)
    @method_decorator(condition(etag_func=night_etag))
    def get(self, request, pk: int):
        if request.versioned is None:
            raise NotFound(f"there is no club night {pk}")
        return Response(night_body(night_view(request.versioned), organiser=request.organiser))


class NightCheckIn(ApiView):
    """Check a player in. The organiser picks one of the league's players (`player`) or types a new one
    (`name`); a player holding the night's code (`night_code`, from its check-in QR) checks themselves in by
    `player`, signed in or not. In a pairs night `partner` checks the partner in with them."""

    permission_classes = [AllowAny]
    error_statuses = (409,)

    @extend_schema(request=CheckInIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        try:
            key = idempotency_key(request)
            data = self.parse(CheckInIn)
        except ValidationError:
            night_for(request.user, pk)  # a night you may not see is a 404 whatever the body
            raise
        code = data.pop("night_code")
        if code is not None:
            # With the code, the night is found whoever asks; a code renewed since is the service's 403.
            night = night_by_code(pk, code) or night_for(request.user, pk)
        elif not request.user.is_authenticated:
            raise NotAuthenticated("sign in, or send the night's code (night_code) to check yourself in")
        else:
            night = night_to_run(request, pk)
        services.night_check_in(night=night, by=request.user, code=code, idempotency_key=key, **data)
        return Response(night_answer(request, night))


class NightCheckOut(ApiView):
    """A player leaves the night: seated in no later round. Refused (409) while they play at a table still
    playing: substitute someone for them, or end the table's game first."""

    error_statuses = (409,)

    @extend_schema(request=NightPlayerIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        services.night_check_out(night=night, by=request.user, idempotency_key=key, **self.parse(NightPlayerIn))
        return Response(night_answer(request, night))


class NightPair(ApiView):
    """A pairs night: two players checked in without a partner become a pair."""

    error_statuses = (409,)

    @extend_schema(request=PairIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        services.night_pair(night=night, by=request.user, idempotency_key=key, **self.parse(PairIn))
        return Response(night_answer(request, night))


class NightRounds(ApiView):
    """Start the next round: everyone here is seated by the movement (or sits out) and each table's game starts.
    Refused (409) while a table of the last round still plays, unless `move_on`; and with too few players."""

    error_statuses = (409,)

    @extend_schema(request=RoundIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        data = self.parse(RoundIn)
        services.night_round_start(night=night, by=request.user, idempotency_key=key, **data)
        return Response(night_answer(request, night))


class NightSubstitute(ApiView):
    """`arriving` takes `leaving`'s seat at their table from the next hand; `leaving` leaves the night."""

    error_statuses = (409,)

    @extend_schema(request=SubstituteIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        services.night_substitute(night=night, by=request.user, idempotency_key=key, **self.parse(SubstituteIn))
        return Response(night_answer(request, night))


class NightTableMove(ApiView):
    """Give a table of the latest round another number in the room; a table already there takes its old one."""

    error_statuses = (409,)

    @extend_schema(request=TableMoveIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        data = self.parse(TableMoveIn)
        services.night_table_move(night=night, by=request.user, number=data["table"], to=data["to"],
                                  idempotency_key=key)
        return Response(night_answer(request, night))


class NightTableEnd(ApiView):
    """End a table's game now, with the hands played (or abandoned); a game already over is a 409."""

    error_statuses = (409,)

    @extend_schema(request=TableEndIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        data = self.parse(TableEndIn)
        services.night_table_end(night=night, by=request.user, number=data["table"], round_number=data["round"],
                                 abandon_game=data["abandon"], idempotency_key=key)
        return Response(night_answer(request, night))


class NightEnd(ApiView):
    """End the night: no more rounds. Tables still playing finish their games, or end now with `end_tables`."""

    error_statuses = (409,)

    @extend_schema(request=NightEndIn, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        key = idempotency_key(request)
        data = self.parse(NightEndIn)
        services.night_end(night=night, by=request.user, idempotency_key=key, **data)
        return Response(night_answer(request, night))


class NightCode(ApiView):
    """A new code for the night (its organisers): the old check-in QR and table cards open nothing from now on.
    The answer's `code` is the new one."""

    @extend_schema(request=None, responses=NightDetailOut, parameters=[IDEMPOTENCY_KEY], tags=TAGS)
    def post(self, request, pk: int):
        night = night_to_run(request, pk)
        services.night_code_renew(night=night, by=request.user, idempotency_key=idempotency_key(request))
        return Response(night_answer(request, night))


class NightResults(ApiView):
    """The night's results as CSV: one line per player (a pairs night: per pair) in the order of its standings,
    then each round's result, table and points."""

    renderer_classes = [CSVRenderer]
    pagination_class = None

    @extend_schema(responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The results.")},
                   tags=TAGS)
    def get(self, request, pk: int):
        night = night_for(request.user, pk)
        return Response(night_results_table(night_view(night)))

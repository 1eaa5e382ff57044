"""Hands: a game's hands (as JSON or CSV) and recording the next one, one hand (read, correct, undo), its
history, and every hand changed since a moment (the feed integrators follow a league by)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.pagination import CursorPages
from api.renderers import OffersCSV
from api.serializers.common import MAX_ID
from api.serializers.exports import HandFeedOut, HandSyncFilter
from api.serializers.games import (
    CheckIn,
    CheckOut,
    CheckResultOut,
    DisputeIn,
    GameDetailOut,
    HandCorrectionIn,
    HandIn,
    HandOut,
    HandResultOut,
    KeepIn,
    RevisionOut,
    UndoIn,
)
from api.sync import cursor_page
from games import policy, selectors, services
from games.errors import NotAllowed
from games.exports import hands_table
from games.models import Game, Hand, HandCheck, HandRevision
from games.rules import game_types, rulesets

from .base import IDEMPOTENCY_KEY, LOCATION, ApiView, created, etag, idempotency_key, if_match
from .games import game_body, visible_game

# One example per game: a first hand as its scorekeeper enters it.
RECORD_EXAMPLES = [OpenApiExample(ruleset.name, value=ruleset.record_example) for ruleset in rulesets()]


def record_schema(extra: dict, description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "properties": {
            "dealer": {"type": "string", "enum": ["N", "E", "S", "W"],
                       "description": "Optional; if given, the seat whose deal it is."},
            "note": {"type": "string", "description": "Optional free text."},
            **extra,
        },
        "additionalProperties": True,
    }


HAND_BODY = record_schema(
    {"expected_number": {"type": "integer", "minimum": 1,
                         "description": "The number this hand should get; 409 if another hand got there first."}},
    "A hand record exactly as the game's rules page gives it ("
    + ", ".join(f"docs/rules/{game_type}.md" for game_type in game_types())
    + "; its fields are checked by the rules engine), plus the optional `expected_number`.",
)
CORRECTION_BODY = record_schema(
    {"reason": {"type": "string", "maxLength": 500, "description": "Why the hand is corrected (kept in history)."}},
    "The corrected hand record (docs/rules/<game>.md), plus an optional `reason`. PUT replaces the record; "
    "PATCH merges the given top-level fields into the stored record.",
)
IF_MATCH = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The hand's `ETag` (or `version`) as you read it, in quotes: if the hand has changed since "
                "(corrected, or scored again after an earlier hand was corrected), nothing is changed and the "
                "answer is a 412.",
)
ETAG = OpenApiParameter("ETag", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200],
                        description="The hand's `version`, quoted: send it back as `If-Match` with a correction.")


def stored_hand(game, number: int) -> Hand:
    hand = game.hands.filter(number=number).first() if 0 < number <= 2**31 else None
    if hand is None:
        raise NotFound(f"there is no hand {number} in this game")
    return hand


class HandList(OffersCSV, ApiView):
    """A game's hands, and recording the next one.

    As CSV (`Accept: text/csv` or `?format=csv`): one line per hand."""

    error_statuses = (409,)
    pagination_class = None  # a game has tens of hands, not thousands

    @extend_schema(responses=HandOut(many=True), tags=["hands"])
    def get(self, request, pk: int):
        # With its players: the CSV and each hand's explanation name them.
        game = visible_game(request.user, pk, related=selectors.GAME_RELATED)
        if self.wants_csv():
            corrected = set(HandRevision.objects.filter(game=game, action=HandRevision.Action.CORRECT)
                            .values_list("number", flat=True))
            return Response(hands_table(game, selectors.game_hands_with_people(game=game), corrected=corrected))
        hands = game.hands.select_related("entered_by").order_by("number")
        return Response(HandOut(hands, many=True).data)

    @extend_schema(request={"application/json": HAND_BODY}, examples=RECORD_EXAMPLES,
                   parameters=[IDEMPOTENCY_KEY, LOCATION], responses={201: HandResultOut}, tags=["hands"])
    def post(self, request, pk: int):
        # The service reads the game, with the lock and the permission checks, in one statement. Only
        # when it refuses (or the body is refused) is the game looked up again: one you may not see is
        # a 404, before any complaint about the body or your permissions.
        if not 0 < pk <= MAX_ID:
            raise NotFound(f"there is no game {pk}")
        try:
            key = idempotency_key(request)
            data = self.parse(HandIn)
        except ValidationError:
            visible_game(request.user, pk)
            raise
        try:
            result = services.hand_record(game=pk, record=data["record"], by=request.user,
                                          expected_number=data.get("expected_number"), idempotency_key=key)
        except NotAllowed:
            visible_game(request.user, pk)
            raise
        return created(result.payload, "api-hand", pk, result.payload["number"])


class HandDetail(ApiView):
    """One hand: read it, correct it (PUT/PATCH re-score every later hand), or undo the last one (DELETE)."""

    error_statuses = (409,)

    @extend_schema(responses=HandOut, parameters=[ETAG], tags=["hands"])
    def get(self, request, pk: int, number: int):
        hand = stored_hand(visible_game(request.user, pk, related=selectors.GAME_RELATED), number)
        return Response(HandOut(hand).data, headers={"ETag": etag(hand.version)})

    def correct(self, request, pk: int, number: int, *, merge: bool):
        game = visible_game(request.user, pk)
        key, versions = idempotency_key(request), if_match(request)
        data = self.parse(HandCorrectionIn)
        services.hand_correct(game=game, number=number, record=data["record"], by=request.user,
                              reason=data["reason"], merge=merge, idempotency_key=key, expected_versions=versions)
        return Response(game_body(request.user, pk))

    @extend_schema(request={"application/json": CORRECTION_BODY}, responses=GameDetailOut,
                   parameters=[IF_MATCH, IDEMPOTENCY_KEY], tags=["hands"])
    def put(self, request, pk: int, number: int):
        return self.correct(request, pk, number, merge=False)

    @extend_schema(request={"application/json": CORRECTION_BODY}, responses=GameDetailOut,
                   parameters=[IF_MATCH, IDEMPOTENCY_KEY], tags=["hands"])
    def patch(self, request, pk: int, number: int):
        return self.correct(request, pk, number, merge=True)

    @extend_schema(request=UndoIn, responses={200: GameDetailOut}, parameters=[IF_MATCH, IDEMPOTENCY_KEY],
                   tags=["hands"])
    def delete(self, request, pk: int, number: int):
        """Undo the last hand (any other hand: 409). Answers with the game as it now stands."""
        game = visible_game(request.user, pk)
        key, versions = idempotency_key(request), if_match(request)
        data = self.parse(UndoIn)
        services.hand_undo(game=game, by=request.user, reason=data["reason"], number=number, idempotency_key=key,
                           expected_versions=versions)
        return Response(game_body(request.user, pk))


class HandRevisions(ApiView):
    """The history of a hand number: every correction and undo, oldest first, with who and why."""

    pagination_class = None

    @extend_schema(responses=RevisionOut(many=True), tags=["hands"])
    def get(self, request, pk: int, number: int):
        game = visible_game(request.user, pk)
        revisions = HandRevision.objects.filter(game=game, number=number).select_related("changed_by")
        return Response(RevisionOut(revisions.order_by("changed_at", "id"), many=True).data)


class HandFeed(ApiView):
    """Hands of the games you can see, in the order they were entered or last corrected, oldest first, in
    cursor pages: with `league` and `updated_after`, every hand of the league changed since then.

    A hand taken back (undone) is no longer listed; its game's `updated_at` and `hand_count` show it.
    """

    pagination_class = CursorPages

    @extend_schema(parameters=[HandSyncFilter], responses=HandFeedOut(many=True), tags=["hands"])
    def get(self, request):
        filters = self.parse(HandSyncFilter, data=request.query_params)
        cursor = filters.pop("cursor", None)
        hands = selectors.hands_for(user=request.user, **filters)
        return cursor_page(request, hands, order="updated_at", cursor=cursor, serializer_class=HandFeedOut)


# --- confirming (docs/api.md, "Confirming hands") ---------------------------------------------------------


def checking_game(request, pk: int, data: dict) -> tuple[Game, services.Confirmer]:
    """The game a confirmation or dispute is for, and who sends it: a user who may see the game, or a phone
    holding its table token (``table_token`` and ``seat`` in the body), which opens this game's confirmations
    and nothing else. Anything else is a 404, as for a game that does not exist."""
    token = data.get("table_token")
    held = policy.TablePass(game_id=pk, token=token, seat=data.get("seat")) if token else None
    if not 0 < pk <= MAX_ID:
        raise NotFound(f"there is no game {pk}")
    game = Game.objects.select_related(*selectors.GAME_RELATED).filter(pk=pk).first()
    if game is None or not policy.game_access(request.user, game, held).view:
        raise NotFound(f"there is no game {pk}")
    return game, services.Confirmer(user=request.user, table_pass=held)


def check_answer(check: HandCheck, status: int = 200) -> Response:
    hand = Hand.objects.select_related("game", "entered_by").get(pk=check.hand_id)
    hand.game = Game.objects.select_related(*selectors.GAME_RELATED).get(pk=hand.game_id)
    return Response({"check": CheckOut(check).data, "hand": HandOut(hand).data}, status=status,
                    headers={"ETag": etag(hand.version)})


IF_MATCH_CHECK = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The hand's `ETag` (or `version`) as your phone showed it: if it was corrected since, nothing is "
                "stored and the answer is a 412 naming the version it has now.",
)


class HandConfirm(ApiView):
    """A player of the other side confirms the hand: signed in as a player seated on that side, or with the
    game's table token and their seat (no account needed). The side that entered the hand cannot confirm it.
    Confirming a hand already confirmed changes nothing and answers with that confirmation."""

    permission_classes = [AllowAny]
    error_statuses = (409, 412)

    @extend_schema(request=CheckIn, responses={200: CheckResultOut},
                   parameters=[IF_MATCH_CHECK, IDEMPOTENCY_KEY], tags=["hands"])
    def post(self, request, pk: int, number: int):
        key, versions = idempotency_key(request), if_match(request)
        data = self.parse(CheckIn)
        game, confirmer = checking_game(request, pk, data)
        check = services.hand_confirm(game=game, number=number, confirmer=confirmer, expected_versions=versions,
                                      idempotency_key=key)
        return check_answer(check)


class HandDispute(ApiView):
    """A player of the other side disputes the hand, saying what they think it was (`record`, checked by the
    rules as a correction would be) and why (`note`). The scorekeeper then corrects it (to that version: it
    counts as confirmed by them) or keeps it with a note (`keep/`)."""

    permission_classes = [AllowAny]
    error_statuses = (409, 412)

    @extend_schema(request=DisputeIn, responses={201: CheckResultOut, 200: CheckResultOut},
                   parameters=[IF_MATCH_CHECK, IDEMPOTENCY_KEY], tags=["hands"])
    def post(self, request, pk: int, number: int):
        key, versions = idempotency_key(request), if_match(request)
        data = self.parse(DisputeIn)
        game, confirmer = checking_game(request, pk, data)
        check = services.hand_dispute(game=game, number=number, confirmer=confirmer, record=data["record"],
                                      note=data["note"], expected_versions=versions, idempotency_key=key)
        return check_answer(check, 201)


class HandKeep(ApiView):
    """The scorekeeper keeps a disputed hand as entered, with a note saying why (shown in the hand's trail)."""

    error_statuses = (409,)

    @extend_schema(request=KeepIn, responses={200: CheckResultOut}, parameters=[IDEMPOTENCY_KEY], tags=["hands"])
    def post(self, request, pk: int, number: int):
        game = visible_game(request.user, pk)
        key = idempotency_key(request)
        data = self.parse(KeepIn)
        check = services.hand_keep(game=game, number=number, by=request.user, note=data["note"], idempotency_key=key)
        return check_answer(check)


class HandChecks(ApiView):
    """The hand's confirmation trail: every confirmation, dispute (with what was said) and note, oldest first."""

    pagination_class = None

    @extend_schema(responses=CheckOut(many=True), tags=["hands"])
    def get(self, request, pk: int, number: int):
        game = visible_game(request.user, pk)
        if not 0 < number < 2**31:
            raise NotFound(f"there is no hand {number} in this game")
        checks = HandCheck.objects.filter(game=game, number=number).select_related("by").order_by("at", "id")
        return Response(CheckOut(checks, many=True).data)

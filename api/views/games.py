"""Games: the list (filtered, followed by what changed, or as CSV) and starting one, one game, abandoning it,
and a casual game's scorekeepers."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.http import condition
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from api.renderers import OffersCSV
from api.serializers.club import PublicIn
from api.serializers.common import MAX_ID
from api.serializers.exports import GameSyncFilter
from api.serializers.games import GameDetailOut, GameIn, GameOut
from api.serializers.people import ScorekeeperIn, ScorekeepersOut
from api.sync import cursor_page
from games import policy, selectors, services, versions
from games.errors import NotAllowed
from games.exports import games_table
from games.models import Game
from games.rules import shown

from .base import (
    IDEMPOTENCY_KEY,
    IF_NONE_MATCH,
    LOCATION,
    ApiView,
    created,
    idempotency_key,
    league_to_play_in,
    path_text,
)

# A CSV of more games than this is refused: narrow it by league or dates.
MAX_CSV_GAMES = 10_000


def game_body(user, pk: int) -> dict:
    """The game as the API shows it, with every hand: a fixed number of queries."""
    if isinstance(pk, bool) or not isinstance(pk, int) or pk <= 0 or pk > 2**63 - 1:
        raise NotFound(f"there is no game {pk}")
    game = selectors.game_with_hands(user=user, pk=pk)
    if game is None:
        raise NotFound(f"there is no game {pk}")
    return GameDetailOut(game).data


def visible_game(user, pk: int, *, related: Sequence[str] = ("league",)) -> Game:
    """The game, if the user may see it (``selectors.game_for``: a 404 otherwise, from the error handler)."""
    return selectors.game_for(user, pk, related=related)


def games_csv(request, games, filename: str) -> Response:
    if games.count() > MAX_CSV_GAMES:
        raise ValidationError({"non_field_errors": [f"more than {MAX_CSV_GAMES} games match; narrow the list "
                                                    "with league, started_after or started_before"]})
    return Response(games_table(games.order_by("started_at", "id"), filename=filename,
                                link=lambda game: request.build_absolute_uri(reverse("table", args=[game.pk]))))


class GameList(OffersCSV, ApiView):
    """Games you can see, filtered by league, player, game type, status and start date: newest first, in pages.

    With `updated_after`, `finished_after` or a `cursor`: cursor pages in the order the games changed (or
    finished), oldest first, to follow a league without reading it again. As CSV (`Accept: text/csv` or
    `?format=csv`): every game matching the filters, oldest first, one line each.
    """

    @extend_schema(parameters=[GameSyncFilter], responses=GameOut(many=True), tags=["games"])
    def get(self, request):
        filters = self.parse(GameSyncFilter, data=request.query_params)
        cursor = filters.pop("cursor", None)
        games = selectors.games_for(user=request.user, **filters)
        if self.wants_csv():
            return games_csv(request, games, "games.csv")
        if cursor or filters.get("updated_after") or filters.get("finished_after"):
            order = "finished_at" if filters.get("finished_after") and not filters.get("updated_after") else "updated_at"
            return cursor_page(request, games, order=order, cursor=cursor, serializer_class=GameOut)
        return self.page(games, GameOut)

    @extend_schema(request=GameIn, responses={201: GameDetailOut}, parameters=[IDEMPOTENCY_KEY, LOCATION],
                   tags=["games"])
    def post(self, request):
        key = idempotency_key(request)
        data = self.parse(GameIn)
        data["league"] = league_to_play_in(request.user, data["league"])
        game = services.game_start(by=request.user, idempotency_key=key, **data)
        return created(game_body(request.user, game.pk), "api-game", game.pk)


def game_version(request, pk: int) -> str | None:
    """The game's ETag, its row kept on the request for the answer; None (no ETag) for a game not to be seen."""
    game = versions.game_with_version(request.user, pk) if 0 < pk <= MAX_ID else None
    request.versioned = game
    return versions.game_etag(game, request.accepted_renderer.format) if game is not None else None


class GameDetail(ApiView):
    """A game with every hand. Sent with ``If-None-Match`` and the ETag of an earlier answer, an unchanged
    game is a 304 with no body."""

    @extend_schema(parameters=[IF_NONE_MATCH], responses={200: GameDetailOut, 304: None}, tags=["games"])
    @method_decorator(condition(etag_func=game_version))
    def get(self, request, pk: int):
        if request.versioned is None:
            raise NotFound(f"there is no game {pk}")
        return Response(GameDetailOut(selectors.add_hands(game=request.versioned)).data)

    @extend_schema(request=PublicIn, responses=GameDetailOut, tags=["games"])
    def patch(self, request, pk: int):
        """A casual game's creator lets anyone follow it (`is_public`), or only its players and scorekeepers."""
        game = visible_game(request.user, pk)
        services.game_set_public(game=game, public=self.parse(PublicIn)["is_public"], by=request.user)
        return Response(game_body(request.user, pk))


class GameAbandon(ApiView):
    """Stop a game for good: no more hands, corrections or undos."""

    error_statuses = (409,)

    @extend_schema(request=None, responses=GameDetailOut, parameters=[IDEMPOTENCY_KEY], tags=["games"])
    def post(self, request, pk: int):
        game = visible_game(request.user, pk)
        services.game_abandon(game=game, by=request.user, idempotency_key=idempotency_key(request))
        return Response(game_body(request.user, pk))


def scorekeepers_body(game) -> dict:
    names = list(game.scorekeepers.order_by("username").values_list("username", flat=True))
    creator = game.created_by.username if game.created_by_id else None
    return ScorekeepersOut({"game": game.pk, "created_by": creator, "scorekeepers": names}).data


class GameScorekeepers(ApiView):
    """A casual game's scorekeepers: users its creator lets record, correct, undo and abandon.

    Only the creator changes them; a league game's scorekeepers are the league's (a 400 here).
    """

    @extend_schema(responses=ScorekeepersOut, tags=["games"])
    def get(self, request, pk: int):
        """For those who keep the game's score (it names them by username); anyone else: 403."""
        game = visible_game_with_creator(request.user, pk)
        if not policy.can_score_game(request.user, game):
            raise NotAllowed("only the game's scorekeepers see who keeps its score")
        return Response(scorekeepers_body(game))

    @extend_schema(request=ScorekeeperIn, responses={201: ScorekeepersOut}, tags=["games"])
    def post(self, request, pk: int):
        game = visible_game_with_creator(request.user, pk)
        username = self.parse(ScorekeeperIn)["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise ValidationError({"username": [f"there is no user {shown(username)}"]})
        services.game_set_scorekeeper(game=game, user=user, allowed=True, by=request.user)
        return Response(scorekeepers_body(game), status=status.HTTP_201_CREATED)


class GameScorekeeper(ApiView):
    @extend_schema(request=None, responses={204: None}, tags=["games"])
    def delete(self, request, pk: int, username: str):
        game = visible_game_with_creator(request.user, pk)
        user = get_user_model().objects.filter(username=path_text(username, "user")).first()
        if user is None:
            raise NotFound(f"there is no user {shown(username)}")
        # Removing someone who is not a scorekeeper changes nothing: still a 204 (DELETE is idempotent).
        services.game_set_scorekeeper(game=game, user=user, allowed=False, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def visible_game_with_creator(user, pk: int) -> Game:
    return visible_game(user, pk, related=("league", "created_by"))

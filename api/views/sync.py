"""The game list with the filters integrators follow a league by, and every hand changed since a moment."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema

from api.pagination import CursorPages
from api.renderers import OffersCSV
from api.serializers.exports import GameSyncFilter, HandFeedOut, HandSyncFilter
from api.serializers.games import GameOut
from api.sync import cursor_page
from games import selectors

from .base import ApiView
from .exports import games_csv
from .games import GameList


class GameFeed(OffersCSV, GameList):
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

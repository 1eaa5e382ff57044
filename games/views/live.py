"""The spectator's view: the scoreboard in large type, refreshing itself while the game is played.

The page asks ``live/board/`` (an HTML fragment) every couple of seconds whether the game changed; the
fragment carries an ETag (``games.versions``: the game row and the players' names), so an unchanged game
costs one query and a 304. A phone holding the game's table pass may watch it too (``policy.game_access``).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import condition, require_GET

from games import selectors, versions

from .common import board, game_title
from .follow import POLL_SECONDS, not_followed
from .table_pass import table_pass


def board_version(request, game_id: int) -> str | None:
    """The board's ETag, the game kept on the request for the answer; None for a game not to be seen."""
    game = versions.game_with_version(request.user, game_id, table_pass(request, game_id))
    request.versioned = game
    return versions.game_etag(game, "board") if game is not None else None


@require_GET
def live(request, game_id: int):
    game = versions.game_with_version(request.user, game_id, table_pass(request, game_id))
    if game is None:
        return not_followed(request, game_id)
    context = board(game, selectors.game_hands(game=game))
    # The board's ETag as the page shows it, so the first poll of an unchanged game is a 304.
    context.update(title=game_title(game), poll_seconds=POLL_SECONDS, version=versions.game_etag(game, "board"))
    return render(request, "games/live.html", context)


@require_GET
@condition(etag_func=board_version)
def live_board(request, game_id: int):
    if request.versioned is None:
        return not_followed(request, game_id)
    context = board(request.versioned, selectors.game_hands(game=request.versioned))
    response = HttpResponse(render_to_string("games/_live_board.html", context, request=request))
    response["Cache-Control"] = "private, no-cache"
    return response

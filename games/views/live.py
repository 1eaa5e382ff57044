"""The spectator's view: the scoreboard in large type, refreshing itself while the game is played.

The page polls ``live/board/`` (an HTML fragment) every few seconds; the fragment carries an ETag
(``games.versions``: the game row and the players' names), so an unchanged game costs one query and a 304.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import condition, require_GET

from games import selectors, versions

from .common import board, game_title

POLL_SECONDS = 4


def board_version(request, game_id: int) -> str | None:
    """The board's ETag, the game kept on the request for the answer; None for a game not to be seen."""
    game = versions.game_with_version(request.user, game_id)
    request.versioned = game
    return versions.game_etag(game, "board") if game is not None else None


@require_GET
def live(request, game_id: int):
    game = versions.game_with_version(request.user, game_id)
    if game is None:
        raise Http404("No such game")
    context = board(game, selectors.game_hands(game=game))
    # The board's ETag as the page shows it, so the first poll of an unchanged game is a 304.
    context.update(title=game_title(game), poll_seconds=POLL_SECONDS, version=versions.game_etag(game, "board"))
    return render(request, "games/live.html", context)


@require_GET
@condition(etag_func=board_version)
def live_board(request, game_id: int):
    if request.versioned is None:
        raise Http404("No such game")
    context = board(request.versioned, selectors.game_hands(game=request.versioned))
    response = HttpResponse(render_to_string("games/_live_board.html", context, request=request))
    response["Cache-Control"] = "no-cache"
    return response

"""The spectator's view: the scoreboard in large type, refreshing itself while the game is played.

The page polls ``live/board/`` (an HTML fragment) every few seconds; the fragment carries an ETag
made from the game row, so an unchanged game costs one small query and a 304.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from games import selectors

from .common import board, game_title, visible_game_or_404

POLL_SECONDS = 4


def version(game) -> str:
    return f'"{game.pk}-{game.hand_count}-{game.status}-{game.updated_at.timestamp()}"'


@require_GET
def live(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    context = board(game, selectors.game_hands(game=game))
    context.update(title=game_title(game), poll_seconds=POLL_SECONDS, version=version(game))
    return render(request, "games/live.html", context)


@require_GET
def live_board(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    etag = version(game)
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers={"ETag": etag})
    context = board(game, selectors.game_hands(game=game))
    context.update(version=etag)
    response = HttpResponse(render_to_string("games/_live_board.html", context, request=request))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response

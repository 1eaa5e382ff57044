"""The spectator's view: the scoreboard in large type, refreshing itself while the game is played.

The page asks ``live/board/`` (an HTML fragment) every couple of seconds whether the game changed; the
fragment carries an ETag (``games.versions``: the game row and the players' names), so an unchanged game
costs one statement (``versions.game_version``: the version and the viewer's right to see it) and a 304. A phone holding the game's table pass may watch it too (``policy.game_access``).
Each version of a board is rendered once and kept in the cache under its ETag: every other watcher of that
version (the other phones at the table, a club night's boards) gets the stored fragment for the query that
finds the version, without the hands being read or the template rendered again.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import condition, require_GET

from games import selectors, versions
from games.kept import cached, keep

from .common import board, game_title
from .follow import POLL_SECONDS, not_followed
from .table_pass import table_pass

# How long a rendered board is kept: a version nobody asks for again goes; a game played on has new versions.
BOARD_SECONDS = 600


def board_version(request, game_id: int) -> str | None:
    """The board's ETag (from the game's version alone: one statement), the game's version kept on the request for
    the answer; None for a game not to be seen."""
    game = versions.game_version(request.user, game_id, table_pass(request, game_id))
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
    # The fragment is the same for every watcher who may see the game (it names no viewer): keyed by its ETag.
    etag = versions.game_etag(request.versioned, "board")
    key = f"live-board:{game_id}:{etag}"
    html = cached(key)
    if html is None:
        # Drawn from the game read whole (its players, its league), under the ETag of what was read.
        game = versions.game_with_version(request.user, game_id, table_pass(request, game_id))
        if game is None:
            return not_followed(request, game_id)
        etag = versions.game_etag(game, "board")
        key = f"live-board:{game_id}:{etag}"
        context = board(game, selectors.game_hands(game=game))
        html = render_to_string("games/_live_board.html", context, request=request)
        keep(key, html, BOARD_SECONDS)
    response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response

"""The other phones at the table: the table's code opens the game on them, and the player's (or a
follower's) view shows it as it is played, updating itself.

- ``join`` (``games/<id>/join/<token>/``, the address in the code): checks the token, gives the phone a pass
  for this game (``table_pass``), and opens the player's view; a scorekeeper who scans it gets the table page.
- ``follow`` (``games/<id>/follow/``): the scoreboard, the totals and the hands on a phone, from the viewer's
  side when they sit at the table (the player linked to their account, or the seat a token holder chose, by
  posting it here). Its answer has an ETag (``games.versions``), so the page's script asks it again every
  couple of seconds and an unchanged game costs a 304.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_GET, require_http_methods

from games import policy, selectors, versions
from games.models import Game
from games.rules import SEATS

from .common import board, game_title
from .table_pass import keep_table_pass, table_pass

# How often a page showing a game asks whether it changed: a hand shows on every phone within this and a
# round trip (the pages promise three seconds).
POLL_SECONDS = 2
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def refused(request, *, renewed: bool):
    """A code (or what a phone kept of one) that no longer opens the game. Said the same way whether or not
    the game exists, so that guessing addresses learns nothing."""
    return render(request, "games/code_refused.html", {"renewed": renewed}, status=403 if renewed else 404)


def not_followed(request, game_id: int):
    """The answer for a game the request may not see: its phone's pass no longer opens it (a 403 that says
    so), or there is nothing for it here (a 404)."""
    if table_pass(request, game_id) is not None:
        return refused(request, renewed=True)
    raise Http404("No such game")


@require_GET
def join(request, game_id: int, token: str):
    game = Game.objects.select_related(*selectors.GAME_RELATED).filter(pk=game_id).first()
    if game is None or not policy.table_token_matches(game, token[:64]):
        return refused(request, renewed=False)
    kept = table_pass(request, game.pk)
    held = policy.TablePass(game_id=game.pk, token=token, seat=kept.seat if kept and kept.token == token else None)
    access = policy.game_access(request.user, game, held)
    # The scorekeeper who scans their own table's code is taken to the entry; everyone else to the game.
    target = "table" if not access.seated and access.score else "follow"
    response = redirect(target, game_id=game.pk)
    keep_table_pass(response, held)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def follow_version(request, game_id: int) -> str | None:
    """The page's ETag: the game's version and whose view it is (one statement: ``versions.game_version``). The
    game's version is kept on the request."""
    game = versions.game_version(request.user, game_id, table_pass(request, game_id))
    request.versioned = game
    return follow_etag(request, game) if game is not None else None


def follow_etag(request, game: Game) -> str:
    access = game.access
    return versions.game_etag(game, "follow", request.user.pk, access.seat, access.seat_chosen, access.by_token)


@require_http_methods(["GET", "HEAD", "POST"])
def follow(request, game_id: int):
    if request.method == "POST":
        return choose_seat(request, game_id)
    return follow_page(request, game_id)


@cache_control(private=True, no_cache=True)
@condition(etag_func=follow_version)
def follow_page(request, game_id: int):
    # Drawn from the game read whole (its players, its league, the viewer's access), under the ETag of what was read.
    game = (versions.game_with_version(request.user, game_id, table_pass(request, game_id))
            if request.versioned is not None else None)
    if game is None:
        return not_followed(request, game_id)
    response = render(request, "games/follow.html", follow_context(request, game))
    response["ETag"] = follow_etag(request, game)
    return response


def follow_context(request, game: Game) -> dict:
    access = game.access
    context = board(game, selectors.game_hands(game=game), revisions=selectors.game_revisions(game=game))
    seats = dict((seat, name) for seat, _, name in context["seats"])
    your_side = next((row["key"] for row in context["sides"] if access.seat in dict(row["seats"])), None)
    context.update(
        title=game_title(game), access=access, can_score=False, may_score=access.score,
        # Nothing beyond the game for whoever sees it only by its table code: no league, no match pages.
        links=not access.by_token,
        your_seat=access.seat, your_seat_word=SEAT_NAMES.get(access.seat or ""), your_name=seats.get(access.seat),
        your_side=your_side,
        seat_choices=[(seat, SEAT_NAMES[seat], seats[seat]) for seat in SEATS] if access.may_choose_seat else [],
        poll_seconds=POLL_SECONDS, version=follow_etag(request, game),
    )
    return context


def choose_seat(request, game_id: int):
    """A token holder says which seat is theirs (or that they are only watching)."""
    held = table_pass(request, game_id)
    game = versions.game_with_version(request.user, game_id, held)
    if game is None:
        return not_followed(request, game_id)
    if held is None or not game.access.may_choose_seat:
        raise PermissionDenied("Your seat is the one your account's player sits in; a phone that scanned the "
                               "table's code chooses its own.")
    seat = request.POST.get("seat", "")
    if seat and seat not in SEATS:
        context = follow_context(request, game)
        context["seat_error"] = "Choose North, East, South or West, or Just watching."
        return render(request, "games/follow.html", context, status=400)
    response = redirect(reverse("follow", args=[game.pk]))
    keep_table_pass(response, policy.TablePass(game_id=game.pk, token=held.token, seat=seat or None))
    return response

"""The table page: the scoreboard, the hand entry form, the history (with every correction's trail) and the
chart of one game; a casual game's scorekeepers. Recording, correcting and undoing hands are in
``games.views.hands``.

The page is what a phone keeps for offline use (the service worker stores the copy last seen), so it
carries what the page's script needs to go on without the server: the next hand's number and dealer,
the deal order and the players' names.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from games import policy, selectors, services, versions
from games.forms import ScorekeeperForm, hand_form_class
from games.forms.base import seat_names
from games.rules import SEATS

from .common import board, game_title, submitted, visible_game_or_404
from .matches import match_standing
from .night_room import night_place
from .table_code import join_link


def table_context(request, game, *, form=None, scorekeeper_form=None):
    can_score = policy.can_score_game(request.user, game)
    hands = selectors.game_hands(game=game)
    context = board(game, hands, revisions=selectors.game_revisions(game=game))
    if can_score and game.status == game.Status.IN_PROGRESS and form is None:
        form = hand_form_class(game.game_type)(game=game)
    choosing = policy.can_choose_scorekeepers(request.user, game)
    summary = context["summary"]
    context.update(
        title=game_title(game), can_score=can_score, form=form,
        hand_template=hand_form_class(game.game_type).template_name_hand,
        rematch_url=rematch_url(game),
        # A finished game of a match: the match as it stands, and its next game one tap away.
        match_standing=match_standing(game) if summary.finished else None,
        # A game of a club night: which night, round and table, and when a round with a time limit is up.
        night_place=night_place(game),
        scorekeeper_form=(scorekeeper_form or ScorekeeperForm()) if choosing else None,
        scorekeepers=list(game.scorekeepers.order_by("username")) if choosing else [],
        # The table's code, for the other phones at the table (the scorekeepers' to show and renew).
        join_link=join_link(request, game, services.table_token_issue(game=game, by=request.user))
        if can_score else None,
        # For the page's script, which keeps entering hands while the phone is offline.
        table_facts={
            "game": game.pk, "handCount": summary.hand_count, "nextDealer": summary.next_dealer,
            "seats": list(SEATS), "names": seat_names(game), "user": request.user.get_username(),
            "renderedAt": timezone.now().isoformat(),
            # Where the page asks, every few seconds, whether another phone changed the game.
            "board": reverse("live-board", args=[game.pk]), "version": versions.board_etag(game),
        },
    )
    return context


def rematch_url(game) -> str:
    query = f"?type={game.game_type}&rematch={game.pk}"
    if game.league_id:
        query += f"&league={game.league.slug}"
    return reverse("new-game") + query


# The page holds a game as it stands: never from the browser's own cache (Back shows it fresh), and
# private to whoever is signed in.
@cache_control(no_store=True, private=True)
def table(request, game_id: int):
    game = visible_game_or_404(request, game_id, related=(*selectors.GAME_RELATED, "night_table__round__night"))
    return render(request, "games/table.html", table_context(request, game))


def render_table(request, game, *, form=None, scorekeeper_form=None, status: int = 200):
    response = render(request, "games/table.html",
                      table_context(request, game, form=form, scorekeeper_form=scorekeeper_form), status=status)
    response["Cache-Control"] = "no-store, private"
    return response


@login_required
@require_POST
def game_scorekeepers(request, game_id: int):
    """A casual game's creator adds or removes a scorekeeper by username."""
    game = visible_game_or_404(request, game_id)
    if not policy.can_choose_scorekeepers(request.user, game):
        raise PermissionDenied("Only the player who started this casual game can choose its scorekeepers.")
    form = ScorekeeperForm(request.POST)
    if form.is_valid() and submitted(form, services.game_set_scorekeeper, game=game, user=form.user,
                                     allowed=form.allowed, by=request.user):
        name = form.cleaned_data["username"]
        messages.success(request, f"{name} can now keep score in this game." if form.allowed
                         else f"{name} no longer keeps score in this game.")
        return redirect(reverse("table", args=[game.pk]) + "#scorekeepers")
    return render_table(request, game, scorekeeper_form=form, status=400)

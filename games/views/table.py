"""The table page: the scoreboard, the hand entry form, the history and the chart of one game; a casual game's
scorekeepers."""

from __future__ import annotations

import time
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games import policy, selectors, services
from games.errors import (
    GameClosed,
    HandConflict,
    IdempotencyInFlight,
    IdempotencyMismatch,
    InvalidInput,
    NotAllowed,
    ServiceError,
)
from games.forms import ScorekeeperForm, hand_form_class
from games.rules import InvalidHand

from .common import board, game_title, visible_game_or_404

# A second tap arriving while the first is still being stored waits for it (at most this long).
IN_FLIGHT_WAIT, IN_FLIGHT_STEP = 5.0, 0.25


def table_context(request, game, *, form=None, status_message: str = "", scorekeeper_form=None):
    can_score = policy.can_score_game(request.user, game)
    hands = selectors.game_hands(game=game)
    context = board(game, hands, corrected=selectors.game_corrected_numbers(game=game))
    if can_score and game.status == game.Status.IN_PROGRESS and form is None:
        form = hand_form_class(game.game_type)(game=game)
    choosing = policy.can_choose_scorekeepers(request.user, game)
    context.update(
        title=game_title(game), can_score=can_score, form=form, status_message=status_message,
        hand_template=hand_form_class(game.game_type).template_name_hand,
        rematch_url=rematch_url(game),
        scorekeeper_form=(scorekeeper_form or ScorekeeperForm()) if choosing else None,
        scorekeepers=list(game.scorekeepers.order_by("username")) if choosing else [],
    )
    return context


def rematch_url(game) -> str:
    query = f"?type={game.game_type}&rematch={game.pk}"
    if game.league_id:
        query += f"&league={game.league.slug}"
    return reverse("new-game") + query


def table(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    return render(request, "games/table.html", table_context(request, game))


@login_required
@require_POST
def game_scorekeepers(request, game_id: int):
    """A casual game's creator adds or removes a scorekeeper by username."""
    game = visible_game_or_404(request, game_id)
    if not policy.can_choose_scorekeepers(request.user, game):
        raise PermissionDenied("Only the player who started this casual game can choose its scorekeepers.")
    form = ScorekeeperForm(request.POST)
    if form.is_valid():
        try:
            services.game_set_scorekeeper(game=game, user=form.user, allowed=form.allowed, by=request.user)
        except NotAllowed as error:
            raise PermissionDenied(error.message) from None
        except InvalidInput as error:
            form.add_error(None, error.message)
        else:
            name = form.cleaned_data["username"]
            messages.success(request, f"{name} can now keep score in this game." if form.allowed
                             else f"{name} no longer keeps score in this game.")
            return redirect(reverse("table", args=[game.pk]) + "#scorekeepers")
    return render(request, "games/table.html", table_context(request, game, scorekeeper_form=form), status=400)


def record_once(*, game, record, by, expected_number, key):
    """Record the hand; a repeat of a request still being stored waits for the first one's result."""
    deadline = time.monotonic() + IN_FLIGHT_WAIT
    while True:
        try:
            return services.hand_record(game=game, record=record, by=by, expected_number=expected_number,
                                        idempotency_key=key or None)
        except IdempotencyInFlight:
            if time.monotonic() > deadline:
                raise
            time.sleep(IN_FLIGHT_STEP)


@login_required
@require_POST
def hand_record(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    if not policy.can_score_game(request.user, game):
        raise PermissionDenied("You cannot keep score in this game.")
    form = hand_form_class(game.game_type)(request.POST, game=game)
    status = 400
    if form.is_valid():
        key = form.cleaned_data.get("idempotency_key") or ""
        try:
            result = record_once(game=game, record=form.to_record(), by=request.user,
                                 expected_number=form.cleaned_data.get("expected_number"), key=key)
        except InvalidHand as error:
            form.add_engine_error(error)
        except HandConflict as error:
            status = 409
            form = fresh_after_conflict(request, game, error)
        except IdempotencyMismatch:
            status = 409
            form = hand_form_class(game.game_type)(request.POST.dict() | fresh_keys(game), game=game)
            form.is_valid()
            form.add_error(None, "This form was already used for a hand that is now recorded. Check the history, "
                                 "then send this hand again if it is a new one.")
        except IdempotencyInFlight:
            messages.info(request, "Your hand is still being recorded; it will appear in a moment.")
            return redirect("table", game_id=game.pk)
        except (GameClosed, InvalidInput) as error:
            form.add_engine_error(error)
        except NotAllowed as error:
            raise PermissionDenied(error.message) from None
        else:
            number = result.payload["number"]
            messages.success(request, f"Hand {number} recorded.")
            return redirect(reverse("table", args=[game.pk]) + f"#hand-{number}")
    game = visible_game_or_404(request, game_id)
    return render(request, "games/table.html", table_context(request, game, form=form), status=status)


def fresh_keys(game) -> dict[str, str]:
    return {"idempotency_key": uuid.uuid4().hex, "expected_number": str(game.hand_count + 1)}


def fresh_after_conflict(request, game, error: HandConflict):
    """Another scorekeeper got there first: keep what was entered, aim it at the new next hand."""
    game.refresh_from_db()
    form = hand_form_class(game.game_type)(request.POST.dict() | fresh_keys(game), game=game)
    form.is_valid()
    form.add_error(None, f"Someone else recorded hand {game.hand_count} meanwhile (the scores above include "
                         f"it). If this is a different hand, send it again as hand {game.hand_count + 1}.")
    return form


@login_required
@require_http_methods(["GET", "POST"])
def hand_correct(request, game_id: int, number: int):
    game = visible_game_or_404(request, game_id)
    if not policy.can_score_game(request.user, game):
        raise PermissionDenied("You cannot keep score in this game.")
    hand = selectors.game_hand(game=game, number=number)
    if hand is None:
        raise Http404("No such hand")
    form_class = hand_form_class(game.game_type)
    status = 200
    if request.method == "POST":
        form = form_class(request.POST, game=game, with_reason=True)
        status = 400
        if form.is_valid():
            try:
                services.hand_correct(game=game, number=number, record=form.to_record(), by=request.user,
                                      reason=form.cleaned_data["reason"])
            except (InvalidHand, InvalidInput, GameClosed) as error:
                form.add_engine_error(error)
            except NotAllowed as error:
                raise PermissionDenied(error.message) from None
            else:
                messages.success(request, f"Hand {number} corrected.")
                return redirect(reverse("table", args=[game.pk]) + f"#hand-{number}")
    else:
        form = form_class(initial=form_class.initial_from_record(hand.record), game=game, with_reason=True)
    return render(request, "games/correct.html", {
        "game": game, "hand": hand, "form": form, "title": game_title(game),
        "hand_template": form_class.template_name_hand,
        "entry": form_class.describe(hand.record, hand.details or {}, {s: p.name for s, p in game.seats.items()}),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def hand_undo(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    if not policy.can_score_game(request.user, game):
        raise PermissionDenied("You cannot keep score in this game.")
    hand = selectors.game_hand(game=game, number=game.hand_count) if game.hand_count else None
    error = ""
    status = 200
    if request.method == "POST":
        number = request.POST.get("number", "")
        try:
            # The number shown on the page: refused if another hand has become the last one meanwhile.
            services.hand_undo(game=game, by=request.user, reason=request.POST.get("reason", "")[:500],
                               number=int(number) if number.isdigit() else -1)
        except HandConflict:
            error = "The last hand has changed since this page was shown; check it again before undoing."
            status = 409
        except ServiceError as exc:
            error, status = exc.message, 400
        else:
            messages.success(request, f"Hand {number} undone.")
            return redirect("table", game_id=game.pk)
        game.refresh_from_db()
        hand = selectors.game_hand(game=game, number=game.hand_count) if game.hand_count else None
    names = {seat: player.name for seat, player in game.seats.items()}
    entry = hand_form_class(game.game_type).describe(hand.record, hand.details or {}, names) if hand else ""
    return render(request, "games/undo.html", {"game": game, "hand": hand, "entry": entry, "error": error,
                                               "title": game_title(game)}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_abandon(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    if not policy.can_score_game(request.user, game):
        raise PermissionDenied("You cannot keep score in this game.")
    error, status = "", 200
    if request.method == "POST":
        try:
            services.game_abandon(game=game, by=request.user)
        except ServiceError as exc:
            error, status = exc.message, 400
        else:
            messages.success(request, "Game abandoned.")
            return redirect("table", game_id=game.pk)
    return render(request, "games/abandon.html", {"game": game, "error": error, "title": game_title(game)},
                  status=status)

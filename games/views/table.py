"""The table page: the scoreboard, the hand entry form, the history and the chart of one game; recording,
correcting and undoing hands, abandoning the game; a casual game's scorekeepers."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games import policy, selectors, services
from games.errors import HandChanged, HandConflict, IdempotencyMismatch
from games.forms import ConfirmForm, ScorekeeperForm, UndoForm, hand_form_class

from .common import board, game_title, scorable_game_or_403, submitted, visible_game_or_404


def table_context(request, game, *, form=None, scorekeeper_form=None):
    can_score = policy.can_score_game(request.user, game)
    hands = selectors.game_hands(game=game)
    context = board(game, hands, corrected=selectors.game_corrected_numbers(game=game))
    if can_score and game.status == game.Status.IN_PROGRESS and form is None:
        form = hand_form_class(game.game_type)(game=game)
    choosing = policy.can_choose_scorekeepers(request.user, game)
    context.update(
        title=game_title(game), can_score=can_score, form=form,
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
    if form.is_valid() and submitted(form, services.game_set_scorekeeper, game=game, user=form.user,
                                     allowed=form.allowed, by=request.user):
        name = form.cleaned_data["username"]
        messages.success(request, f"{name} can now keep score in this game." if form.allowed
                         else f"{name} no longer keeps score in this game.")
        return redirect(reverse("table", args=[game.pk]) + "#scorekeepers")
    return render(request, "games/table.html", table_context(request, game, scorekeeper_form=form), status=400)


@login_required
@require_POST
def hand_record(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form = hand_form_class(game.game_type)(request.POST, game=game)
    if form.is_valid():
        result = submitted(form, services.hand_record, game=game, record=form.to_record(), by=request.user,
                           expected_number=form.cleaned_data.get("expected_number"),
                           idempotency_key=form.cleaned_data.get("idempotency_key") or None)
        if result is not None:
            number = result.payload["number"]
            messages.success(request, f"Hand {number} recorded.")
            return redirect(reverse("table", args=[game.pk]) + f"#hand-{number}")
        if isinstance(form.refusal, HandConflict | IdempotencyMismatch):
            form = entry_for_next_hand(request, game, form.refusal)
    game.refresh_from_db()
    return render(request, "games/table.html", table_context(request, game, form=form), status=form.status)


def entry_for_next_hand(request, game, refusal):
    """Another hand got there first (or this entry was already recorded): keep what was entered,
    aimed at the hand that is next now, and say what happened."""
    game.refresh_from_db()
    form_class = hand_form_class(game.game_type)
    fresh = form_class(game=game)
    data = request.POST.dict() | {name: str(fresh[name].initial) for name in ("idempotency_key", "expected_number")}
    form = form_class(data, game=game)
    form.is_valid()
    if isinstance(refusal, HandConflict):
        message = (f"Someone else recorded hand {game.hand_count} meanwhile (the scores above include it). "
                   f"If this is a different hand, send it again as hand {game.hand_count + 1}.")
    else:
        message = ("This form was already used for a hand that is now recorded. Check the history, "
                   "then send this hand again if it is a new one.")
    form.add_error(None, message)
    form.status = 409
    return form


@login_required
@require_http_methods(["GET", "POST"])
def hand_correct(request, game_id: int, number: int):
    game = scorable_game_or_403(request, game_id)
    hand = selectors.game_hand(game=game, number=number)
    if hand is None:
        raise Http404("No such hand")
    form_class = hand_form_class(game.game_type)
    if request.method == "POST":
        form = form_class(request.POST, game=game, with_reason=True)
        version = form.cleaned_data.get("version") if form.is_valid() else None
        if form.is_valid() and submitted(form, services.hand_correct, game=game, number=number,
                                         record=form.to_record(), by=request.user,
                                         reason=form.cleaned_data["reason"],
                                         expected_versions=[version] if version else None):
            messages.success(request, f"Hand {number} corrected.")
            return redirect(reverse("table", args=[game.pk]) + f"#hand-{number}")
        status = form.status
        if isinstance(form.refusal, HandChanged):
            hand, form = correction_of_changed_hand(request, game, number)
    else:
        initial = {**form_class.initial_from_record(hand.record), "version": hand.version}
        form = form_class(initial=initial, game=game, with_reason=True)
        status = 200
    return render(request, "games/correct.html", {
        "game": game, "hand": hand, "form": form, "title": game_title(game),
        "hand_template": form_class.template_name_hand,
        "entry": form_class.describe(hand.record, hand.details or {}, {s: p.name for s, p in game.seats.items()}),
    }, status=status)


def correction_of_changed_hand(request, game, number: int):
    """Someone else changed the hand while this correction was being made: show the hand as it is now,
    keep what was entered, and let a second save (made knowing) go through."""
    hand = selectors.game_hand(game=game, number=number)
    if hand is None:
        raise Http404("No such hand")  # undone meanwhile, too
    form_class = hand_form_class(game.game_type)
    form = form_class(request.POST.dict() | {"version": hand.version}, game=game, with_reason=True)
    form.is_valid()
    form.add_error(None, f"Someone else changed hand {number} while you were correcting it; it now reads as "
                         "shown above. Your correction was not saved: check it against that, then save again.")
    return hand, form


@login_required
@require_http_methods(["GET", "POST"])
def hand_undo(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form, status, changed = UndoForm(), 200, False
    if request.method == "POST":
        form = UndoForm(request.POST)
        # The number shown on the page: refused if another hand has become the last one meanwhile.
        if form.is_valid() and submitted(form, services.hand_undo, game=game, by=request.user,
                                         reason=form.cleaned_data["reason"], number=form.cleaned_data["number"]):
            messages.success(request, f"Hand {form.cleaned_data['number']} undone.")
            return redirect("table", game_id=game.pk)
        status, changed = form.status, isinstance(form.refusal, HandConflict)
        game.refresh_from_db()
        if changed:
            form = UndoForm()  # shown again for the hand that is last now
    hand = selectors.game_hand(game=game, number=game.hand_count) if game.hand_count else None
    if hand is not None and not form.is_bound:
        form.initial = {"number": hand.number}
    names = {seat: player.name for seat, player in game.seats.items()}
    entry = hand_form_class(game.game_type).describe(hand.record, hand.details or {}, names) if hand else ""
    return render(request, "games/undo.html", {"game": game, "hand": hand, "entry": entry, "form": form,
                                               "changed": changed, "title": game_title(game)}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_abandon(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and submitted(form, services.game_abandon, game=game,
                                                                  by=request.user):
        messages.success(request, "Game abandoned.")
        return redirect("table", game_id=game.pk)
    return render(request, "games/abandon.html", {"game": game, "form": form, "title": game_title(game)},
                  status=form.status if form.refusal else 200)

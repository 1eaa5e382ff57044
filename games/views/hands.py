"""Recording, correcting and undoing hands and abandoning a game, from the table page's forms.

Every form carries an idempotency key, so a form sent twice (a double tap, Back then send, a retry after
a lost answer) changes the game once. Recording also answers in JSON when asked (``Accept:
application/json``): that is how the table page's outbox sends hands kept on the phone, and it needs
to tell a refused hand from a conflict and from a session that has ended.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors, services
from games.errors import HandConflict, IdempotencyMismatch
from games.forms import ConfirmForm, UndoForm, hand_form_class

from .common import game_title, scorable_game_or_403, submitted
from .table import render_table


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def json_refusal(status: int, code: str, detail: str, **extra) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail, **extra}, status=status)


def form_refusal(form) -> JsonResponse:
    """A refused entry as the outbox reads it: each message under the form field or group it concerns."""
    errors = {name: [str(message) for message in messages_] for name, messages_ in form.errors.items()
              if name != "__all__"}
    general = [str(message) for message in form.non_field_errors()]
    refusal = form.refusal
    code = ("hand_conflict" if isinstance(refusal, HandConflict)
            else "idempotency_mismatch" if isinstance(refusal, IdempotencyMismatch) else "invalid")
    every = [*general, *(m for ms in form.group_errors.values() for m in ms), *(m for ms in errors.values() for m in ms)]
    body = {"errors": errors, "groups": form.group_errors, "non_field_errors": general}
    if isinstance(refusal, HandConflict):
        body["state"] = refusal.state
    return json_refusal(form.status, code, every[0] if every else "this hand was refused", **body)


@require_POST
def hand_record(request, game_id: int):
    as_json = wants_json(request)
    if not request.user.is_authenticated:
        if as_json:
            return json_refusal(401, "not_signed_in", "Your session has ended: sign in, then the hand is sent.")
        return redirect_to_login(reverse("table", args=[game_id]))
    try:
        game = scorable_game_or_403(request, game_id)
    except Http404:
        if as_json:
            return json_refusal(404, "not_found", "There is no such game, or you cannot see it.")
        raise
    except PermissionDenied as denied:
        if as_json:
            return json_refusal(403, "not_allowed", str(denied))
        raise
    form = hand_form_class(game.game_type)(request.POST, game=game)
    if form.is_valid():
        result = submitted(form, services.hand_record, game=game, record=form.to_record(), by=request.user,
                           expected_number=form.cleaned_data.get("expected_number"),
                           idempotency_key=form.cleaned_data.get("idempotency_key") or None)
        if result is not None:
            number = result.payload["number"]
            if as_json:
                return JsonResponse({"number": number, "replayed": result.replayed, "game": result.payload},
                                    status=200 if result.replayed else 201)
            messages.success(request, f"Hand {number} recorded.")
            return redirect("table", game_id=game.pk)
        if as_json:
            return form_refusal(form)
        if isinstance(form.refusal, HandConflict | IdempotencyMismatch):
            form = entry_for_next_hand(request, game, form.refusal)
    elif as_json:
        return form_refusal(form)
    game.refresh_from_db()
    form.focus_first_error()
    return render_table(request, game, form=form, status=form.status)


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
        if form.is_valid() and submitted(form, services.hand_correct, game=game, number=number,
                                         record=form.to_record(), by=request.user,
                                         reason=form.cleaned_data["reason"],
                                         idempotency_key=form.cleaned_data.get("idempotency_key") or None):
            messages.success(request, f"Hand {number} corrected.")
            return redirect(reverse("table", args=[game.pk]) + f"#hand-{number}")
        status = form.status
        form.focus_first_error()
    else:
        form = form_class(initial=form_class.initial_from_record(hand.record), game=game, with_reason=True)
        status = 200
    return render(request, "games/correct.html", {
        "game": game, "hand": hand, "form": form, "title": game_title(game),
        "hand_template": form_class.template_name_hand,
        "entry": form_class.describe(hand.record, hand.details or {}, {s: p.name for s, p in game.seats.items()}),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def hand_undo(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form, status, changed = UndoForm(), 200, False
    if request.method == "POST":
        form = UndoForm(request.POST)
        # The number shown on the page: refused if another hand has become the last one meanwhile.
        if form.is_valid() and submitted(form, services.hand_undo, game=game, by=request.user,
                                         reason=form.cleaned_data["reason"], number=form.cleaned_data["number"],
                                         idempotency_key=form.cleaned_data["idempotency_key"] or None):
            messages.success(request, f"Hand {form.cleaned_data['number']} undone.")
            return redirect("table", game_id=game.pk)
        status, changed = form.status, isinstance(form.refusal, HandConflict)
        game.refresh_from_db()
        if changed:
            form = UndoForm()  # shown again for the hand that is last now
    hand = selectors.game_hand(game=game, number=game.hand_count) if game.hand_count else None
    if hand is not None and not form.is_bound:
        form.initial = {**form.initial, "number": hand.number}
    names = {seat: player.name for seat, player in game.seats.items()}
    entry = hand_form_class(game.game_type).describe(hand.record, hand.details or {}, names) if hand else ""
    return render(request, "games/undo.html", {"game": game, "hand": hand, "entry": entry, "form": form,
                                               "changed": changed, "title": game_title(game)}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_abandon(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and submitted(
            form, services.game_abandon, game=game, by=request.user,
            idempotency_key=form.cleaned_data["idempotency_key"] or None):
        messages.success(request, "Game abandoned.")
        return redirect("table", game_id=game.pk)
    return render(request, "games/abandon.html", {"game": game, "form": form, "title": game_title(game)},
                  status=form.status if form.refusal else 200)



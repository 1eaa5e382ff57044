"""A hand's confirm screen (``games/<id>/hands/<n>/check/``): the hand as the other side reads it, with Confirm
and Dispute; on the scorekeeper's phone, the same screen handed across the table to the other side, and a
disputed hand's two versions with Correct and Keep.

Whoever may follow the game opens it; who may confirm is the services' to say (``services.hand_confirm``):
a player of the other side, signed in or with the table's code and their seat, or the scorekeeper's phone in
the other side's hands. The forms answer in JSON too (``Accept: application/json``): a phone's script sends a
confirmation made offline that way, once it is back online.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods

from games import selectors, services, versions
from games.errors import DomainError, HandChanged, NotAllowed
from games.forms import hand_form_class
from games.forms.base import SEAT_WORDS
from games.models import Confirmation, Game, Hand
from games.summary import hand_explanation

from .common import board
from .follow import not_followed
from .hands import form_refusal, wants_json
from .table_pass import table_pass


def refusal_status(error: DomainError) -> int:
    return 403 if isinstance(error, NotAllowed) else 409 if isinstance(error, HandChanged) else 400


def answer(request, game: Game, number: int, text: str, *, status: int = 200, back: str = "follow"):
    """After a write: JSON for a script (the state the hand is in now, and the page the form goes back to:
    ``location``), else that page."""
    target = reverse("table" if back == "table" else "follow", args=[game.pk]) + f"#hand-{number}"
    if wants_json(request):
        hand = Hand.objects.filter(game=game, number=number).first()
        if status < 400 and request.POST.get("after") == "back":
            # The confirm screen's script goes back to that page once answered: the page says what was done.
            messages.success(request, text)
        return JsonResponse({"detail": text, "number": number, "location": target,
                             "confirmation": hand.check_state if hand is not None else None}, status=status)
    if status >= 400:
        messages.error(request, text)
    else:
        messages.success(request, text)
    return redirect(target)


def seat_and_name(game: Game, seat: str) -> str:
    """``East (Ben)``: a seat as the hand's confirmation says it, with whoever sits there."""
    player = game.seats.get(seat)
    return f"{SEAT_WORDS.get(seat, seat)} ({player.name})" if player is not None else SEAT_WORDS.get(seat, seat)


@cache_control(no_store=True, private=True)
@require_http_methods(["GET", "HEAD", "POST"])
def hand_check(request, game_id: int, number: int):
    held = table_pass(request, game_id)
    game = versions.game_with_version(request.user, game_id, held)
    if game is None:
        return not_followed(request, game_id)
    if game.confirmation != Confirmation.OPPONENTS:
        raise Http404("This game's hands are not confirmed by the other side")
    hand = selectors.game_hand(game=game, number=number) if 0 < number < 2**31 else None
    if hand is None:
        raise Http404("No such hand")
    if request.method == "POST":
        return check_post(request, game, hand, held)
    return render(request, "games/check.html", check_context(request, game, hand))


def check_context(request, game: Game, hand: Hand, *, form=None, error: str = "") -> dict:
    access = game.access
    hands = selectors.game_hands(game=game)
    context = board(game, hands)
    item = next(item for item in context["history"] if item["number"] == hand.number)
    seats = {seat: name for seat, _, name in context["seats"]}
    # The scorekeeper's phone, handed across: the seats of the side that confirms, to tap "I'm ...".
    handed = request.GET.get("handed") == "1" or request.POST.get("handed") == "1"
    may_score = access.score
    if handed and not may_score:
        raise PermissionDenied("Only the scorekeeper's phone is handed across to confirm.")
    other_seats = [seat for seat in seats if not hand.entered_side or game.ruleset.side_of(seat) != hand.entered_side]
    you_confirm = (not handed and access.seat is not None
                   and (not hand.entered_side or game.ruleset.side_of(access.seat) != hand.entered_side))
    form_class = hand_form_class(game.game_type)
    if form is None:
        form = form_class(initial={**form_class.initial_from_record(hand.record), "version": hand.version},
                          game=game, with_reason=True)
    form.fields["reason"].label = "What happened (the scorekeeper reads it)"
    form.fields["reason"].help_text = ""
    context.update(
        title=f"Hand {hand.number}: confirm", hand=hand, item=item, access=access, handed=handed,
        may_score=may_score, you_confirm=you_confirm, form=form, error=error,
        hand_template=form_class.template_name_hand,
        explanation=hand_explanation(game, hand, seats),
        your_seat_word=SEAT_WORDS.get(access.seat or ""), your_name=seats.get(access.seat or ""),
        handed_seats=[(seat, SEAT_WORDS[seat], seats[seat]) for seat in other_seats],
        entered_by_side=side_and_names(game, hand.entered_side, seats), hand_totals=list(zip(context["side_keys"], item["totals"], strict=True)), back="table" if may_score and not you_confirm else "follow",
    )
    return context


def side_and_names(game: Game, side: str, seats: dict[str, str]) -> str:
    """``NS (Ann & Cat)``: a side with the players in it (empty for none)."""
    if not side or side not in game.ruleset.sides:
        return side
    return f"{side} ({' & '.join(seats[seat] for seat in game.ruleset.seats_of(side))})"


def confirmer_for(request, game: Game, held) -> services.Confirmer:
    seat = request.POST.get("seat") or None
    if request.POST.get("handed") == "1":
        return services.Confirmer(user=request.user, handed_seat=seat or "")
    return services.Confirmer(user=request.user, table_pass=held)


def check_post(request, game: Game, hand: Hand, held):
    action = request.POST.get("action", "")
    back = "table" if request.POST.get("handed") == "1" or request.POST.get("back") == "table" else "follow"
    version = request.POST.get("version") or None
    versions_seen = [version] if version else None
    # The tap's idempotency key: a retry with it (the outbox sending again, a form posted twice) gets the
    # first answer and stores nothing more.
    key = request.POST.get("idempotency_key") or request.POST.get("key") or None
    try:
        if action == "confirm":
            check = services.hand_confirm(game=game, number=hand.number, confirmer=confirmer_for(request, game, held),
                                          expected_versions=versions_seen, idempotency_key=key)
            who = seat_and_name(game, check.seat) if check.seat else "the scorekeeper"
            return answer(request, game, hand.number, f"Hand {hand.number} confirmed by {who}.", back=back)
        if action == "dispute":
            form = hand_form_class(game.game_type)(request.POST, game=game, with_reason=True)
            if not form.is_valid():
                if wants_json(request):
                    return form_refusal(form)
                return render(request, "games/check.html", check_context(request, game, hand, form=form),
                              status=400)
            check = services.hand_dispute(game=game, number=hand.number,
                                          confirmer=confirmer_for(request, game, held), record=form.to_record(),
                                          note=form.cleaned_data.get("reason", ""), expected_versions=versions_seen,
                                          idempotency_key=key)
            return answer(request, game, hand.number,
                          f"Hand {hand.number} disputed by {seat_and_name(game, check.seat)}: the scorekeeper's "
                          "phone shows both versions.", status=201, back=back)
        if action == "keep":
            services.hand_keep(game=game, number=hand.number, by=request.user, note=request.POST.get("note", ""),
                               idempotency_key=key)
            return answer(request, game, hand.number, f"Hand {hand.number} kept as entered.", back="table")
        if action == "accept":
            dispute = hand.checks.filter(action="disputed").order_by("-at", "-id").first()
            if dispute is None or hand.check_state != "disputed":
                return answer(request, game, hand.number, f"Hand {hand.number} is not disputed.", status=409,
                              back="table")
            services.hand_correct(game=game, number=hand.number, record=dispute.record, by=request.user,
                                  reason=f"as {SEAT_WORDS.get(dispute.seat, '')} said" + (
                                      f": {dispute.note}" if dispute.note else ""),
                                  idempotency_key=key, expected_versions=versions_seen)
            return answer(request, game, hand.number,
                          f"Hand {hand.number} corrected as {seat_and_name(game, dispute.seat)} said.", back="table")
    except NotAllowed as error:
        if wants_json(request):
            return JsonResponse({"detail": error.message, "code": "not_allowed"}, status=403)
        raise PermissionDenied(error.message) from None
    except DomainError as error:
        if wants_json(request):
            return JsonResponse({"detail": error.message, "code": "refused"}, status=refusal_status(error))
        hand.refresh_from_db()
        return render(request, "games/check.html", check_context(request, game, hand, error=error.message),
                      status=refusal_status(error))
    return answer(request, game, hand.number, "Choose Confirm or Dispute.", status=400, back=back)

"""What the game pages share: finding a game the user may see or score, putting what the services refuse
on the form, and the scoreboard built from a game's summary and hands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import Http404

from games import policy, selectors
from games.errors import (
    DomainError,
    HandChanged,
    HandConflict,
    IdempotencyMismatch,
    NotAllowed,
    NotFound,
)
from games.forms import RefusalForm, hand_form_class
from games.forms.base import SEAT_WORDS, seat_names
from games.models import Confirmation, Game, Hand, HandCheck, HandRevision, League
from games.models.people import display_name
from games.rules.explaining import signed
from games.services.hand_checks import awaited
from games.summary import GameSummary, game_needs, game_summary, hand_explanation

from .chart import score_chart

T = TypeVar("T")

# What a page answers when a write is refused; anything not listed is a 400.
REFUSAL_STATUS: dict[type[DomainError], int] = {
    HandConflict: 409, IdempotencyMismatch: 409, HandChanged: 409,
}


def visible_league_or_404(request, slug: str) -> League:
    """The league, if the user may see it; a private league is a 404 to everyone but its members."""
    league = League.objects.filter(slug=slug).first()
    if league is None or not policy.can_view_league(request.user, league):
        raise Http404("No such league")
    return league


def game_or_refusal(request, game_id: int, *, need: Literal["view", "score"],
                    related: Sequence[str] = selectors.GAME_RELATED) -> Game:
    """The game, as ``selectors.game_for`` finds it for the pages' user (``related`` joined); its refusals as the
    pages show them."""
    try:
        return selectors.game_for(request.user, game_id, need=need, related=related)
    except NotFound:
        raise Http404("No such game") from None
    except NotAllowed:
        raise PermissionDenied("You cannot keep score in this game.") from None


def visible_game_or_404(request, game_id: int, related: Sequence[str] = selectors.GAME_RELATED) -> Game:
    """The game, if the user may see it; a private league's game is a 404 to everyone else."""
    return game_or_refusal(request, game_id, need="view", related=related)


def scorable_game_or_403(request, game_id: int) -> Game:
    """The game, if the user may keep its score (a 404 if they may not even see it)."""
    return game_or_refusal(request, game_id, need="score")


def submitted(form: RefusalForm, write: Callable[..., T], /, **kwargs: Any) -> T | None:
    """What the service call ``write(**kwargs)`` returned; or None when it was refused.

    A refusal by the rules or the services shows on ``form`` (beside its field, ``form.status`` set);
    one by the permission policy is a 403 page.
    """
    try:
        return write(**kwargs)
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except DomainError as error:
        form.show_refusal(error, REFUSAL_STATUS.get(type(error), 400))
        return None


def side_rows(game: Game, summary: GameSummary) -> list[dict[str, Any]]:
    """Each side of the scoreboard: its players by name, total, extras and whether it won."""
    seats = seat_names(game)
    return [
        {"key": side.key, "name": " & ".join(seats[seat] for seat in side.seats), "total": side.total,
         "extras": [extra.words(count) for extra, count in side.extras], "winner": side.winner,
         "seats": [(seat, seats[seat]) for seat in side.seats]}
        for side in summary.sides
    ]


def who(user) -> str:
    """How a person is named on the pages: their display name, never their login name."""
    if user is None:
        return "someone whose account is gone"
    return display_name(user)


def trails(revisions: list[HandRevision], describe, seats: dict[str, str]) -> dict[int, list[dict[str, Any]]]:
    """Each hand number's corrections and undos, oldest first: who, when, why, the entry before and after."""
    out: dict[int, list[dict[str, Any]]] = {}
    for revision in revisions:
        out.setdefault(revision.number, []).append({
            "undo": revision.action == HandRevision.Action.UNDO,
            "who": who(revision.changed_by),
            "when": revision.changed_at,
            "reason": revision.reason,
            "before": describe(revision.previous_record, {}, seats),
            "after": describe(revision.new_record, {}, seats) if revision.new_record is not None else "",
        })
    return out


VIA_WORDS = {
    HandCheck.Via.ACCOUNT: "on their phone",
    HandCheck.Via.CODE: "on their phone",
    HandCheck.Via.HANDED: "on the scorekeeper's phone",
    HandCheck.Via.CORRECTION: "by the correction they asked for",
    HandCheck.Via.SCOREKEEPER: "",
}


def awaited_names(game: Game, hand: Hand, seats: dict[str, str]) -> str:
    """Who a waiting hand waits for, with their names: ``EW (Ben or Dan)``; the players who may confirm it when
    either side may (``Ann, Ben, Cat or Dan``)."""
    ruleset = game.ruleset
    side = awaited(game, hand)
    seated = ruleset.seats_of(side) if side in ruleset.sides else tuple(seats)
    names = [seats[seat] for seat in seated]
    listed = " or ".join(filter(None, [", ".join(names[:-1]), *names[-1:]]))
    return f"{side} ({listed})" if side in ruleset.sides else listed


def check_lines(game: Game, hands: list[Hand], describe, seats: dict[str, str]) -> dict[int, dict[str, Any]]:
    """In a game whose hands the other side confirms: each hand's state in words, the dispute the scorekeeper
    is to settle, and its confirmation trail (one query; none in other games)."""
    if game.confirmation != Confirmation.OPPONENTS:
        return {}
    checks: dict[int, list[HandCheck]] = {}
    for check in HandCheck.objects.filter(game=game).select_related("by").order_by("at", "id"):
        checks.setdefault(check.hand_id, []).append(check)
    out = {}
    for hand in hands:
        mine = checks.get(hand.pk, [])
        dispute = next((check for check in reversed(mine) if check.action == HandCheck.Action.DISPUTED), None)
        last = mine[-1] if mine else None
        speaker = f"{SEAT_WORDS[last.seat]} ({seats[last.seat]})" if last is not None and last.seat else ""
        words = {"waiting": f"waiting for {awaited(game, hand)}",
                 "confirmed": f"confirmed by {speaker}" if speaker else "confirmed",
                 "disputed": f"disputed by {speaker}" if speaker else "disputed",
                 "kept": "kept by the scorekeeper"}.get(hand.check_state, "")
        out[hand.number] = {
            "state": hand.check_state, "words": words, "entered_side": hand.entered_side,
            "awaited": awaited(game, hand), "awaited_names": awaited_names(game, hand, seats),
            "dispute": {"who": f"{SEAT_WORDS[dispute.seat]} ({seats[dispute.seat]})", "seat": dispute.seat,
                        "entry": describe(dispute.record or {}, {}, seats), "note": dispute.note}
            if dispute is not None and hand.check_state == "disputed" else None,
            "trail": [{"action": check.get_action_display(),
                       "who": f"{SEAT_WORDS[check.seat]} ({seats[check.seat]})" if check.seat else who(check.by),
                       "how": VIA_WORDS.get(check.via, ""), "when": check.at, "note": check.note,
                       "entry": describe(check.record, {}, seats) if check.record else ""} for check in mine],
        }
    return out


def board(game: Game, hands: list[Hand], *, revisions: Sequence[HandRevision] = ()) -> dict[str, Any]:
    """The scoreboard (with what each side needs), the history (each hand's score in words, its trail of
    corrections and undos, and where its confirmation by the other side stands) and the chart of a game."""
    summary = game_summary(game)
    ruleset = game.ruleset
    sides = ruleset.sides
    rows = side_rows(game, summary)
    names = {row["key"]: row["name"] for row in rows}
    seats = seat_names(game)
    form_class = hand_form_class(game.game_type)
    trail = trails(list(revisions), form_class.describe, seats)
    checks = check_lines(game, hands, form_class.describe, seats)
    history = [
        {
            "number": hand.number,
            "dealer": hand.dealer,
            "dealer_name": seats[hand.dealer],
            "entry": form_class.describe(hand.record, hand.details or {}, seats),
            "explanation": hand_explanation(game, hand, seats),
            "note": hand.record.get("note", ""),
            # Each side's change as the words write it (``+41``, ``−9``), and whether it went up or down.
            "score": [(side, signed(points), "up" if points > 0 else "down" if points < 0 else "")
                      for side, points in ((side, hand.delta.get(side, 0)) for side in sides)],
            "totals": [hand.totals.get(side, 0) for side in sides],
            "extras": [(extra.many.capitalize(), [hand.extras.get(extra.name, {}).get(side, 0) for side in sides])
                       for extra in ruleset.extras_shown],
            "trail": trail.get(hand.number, []),
            "corrected": any(not change["undo"] for change in trail.get(hand.number, [])),
            "last": hand.number == game.hand_count,
            "check": checks.get(hand.number),
            "version": hand.version,
        }
        for hand in hands
    ]
    # Hands taken back and not entered again: shown where they were, with who took them back.
    undone = [{"number": number, "trail": changes} for number, changes in sorted(trail.items(), reverse=True)
              if number > game.hand_count]
    return {
        "game": game,
        "summary": summary,
        "sides": rows,
        "side_keys": sides,
        "names": names,
        "seats": [(seat, SEAT_WORDS[seat], seats[seat]) for seat in seats],
        "target": game.options.get("target"),
        "needs": game_needs(game, seats),
        "next_dealer": summary.next_dealer,
        "next_dealer_name": seats[summary.next_dealer],
        "next_number": summary.next_number,
        "finished": summary.finished,
        "abandoned": summary.abandoned,
        "in_progress": summary.in_progress,
        "winner_names": names.get(summary.winner, "") if summary.winner else "",
        "history": history,
        "undone": undone,
        # Hands the other side has yet to confirm (or disputed): the totals say so.
        "unconfirmed": [item["number"] for item in history
                        if item["check"] is not None and item["check"]["state"] in ("waiting", "disputed")],
        "confirmation": game.confirmation == Confirmation.OPPONENTS,
        "history_help": form_class.history_help,
        "chart": score_chart(sides, names, [hand.totals for hand in hands], game.options.get("target")),
    }


def game_title(game: Game) -> str:
    names = [row["name"] for row in side_rows(game, game_summary(game))]
    return f"{game.game_type_name}: {' v '.join(names)}"

"""What recording and correcting a hand do to its confirmation by the other side (``games.services.confirmations``
confirms and disputes): a recorded hand waits for the other side, a correction makes it wait again (or settles
a dispute), and a game counts its unsettled hands and whether it is provisional."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games import events, policy
from games.models import PROVISIONAL_HOURS, Confirmation, Game, Hand, HandCheck

WAITING, CONFIRMED, DISPUTED, KEPT = "waiting", "confirmed", "disputed", "kept"
UNSETTLED = (WAITING, DISPUTED)


def entered_side(game: Game, by) -> str:
    """The side of whoever entered a hand: the side of the seat their account's player sits in; empty for a
    scorekeeper not at the table, whose hands either side confirms."""
    seat = policy.own_seat(by, game)
    return game.ruleset.side_of(seat) if seat is not None else ""


def awaited(game: Game, hand: Hand) -> str:
    """Who a waiting hand waits for, in words: the other side ("EW"), or either side."""
    if not hand.entered_side:
        return "either side"
    others = [side for side in game.ruleset.sides if side != hand.entered_side]
    return others[0] if len(others) == 1 else "another player"


def latest_check(hand: Hand, action) -> HandCheck | None:
    return HandCheck.objects.filter(hand=hand, action=action).order_by("-at", "-id").first()


def window(game: Game) -> timedelta:
    hours = game.league.provisional_hours if game.league_id is not None else PROVISIONAL_HOURS
    return timedelta(hours=hours)


def is_provisional(game: Game, *, now: datetime) -> bool:
    """Finished, with hands not yet confirmed, and its league's window not yet passed."""
    if game.confirmation != Confirmation.OPPONENTS or game.status != Game.Status.FINISHED or not game.unconfirmed:
        return False
    return game.finished_at is None or game.finished_at + window(game) > now


# --- what recording and correcting do to it --------------------------------------------------------------


def comparable(record: Mapping[str, Any] | None) -> dict[str, Any]:
    return {key: value for key, value in dict(record or {}).items() if key != "note"}


def after_correction(game: Game, hand: Hand, record: Mapping[str, Any], by) -> None:
    """A corrected hand of a confirmed game: confirmed by the disputing side if it now reads as they said it
    was (the correction they asked for), else waiting for the other side again. Called in the correction's
    transaction, before the game settles (which counts the unsettled hands again)."""
    if game.confirmation != Confirmation.OPPONENTS:
        return
    dispute = latest_check(hand, HandCheck.Action.DISPUTED) if hand.check_state == DISPUTED else None
    if dispute is not None and comparable(dispute.record) == comparable(record):
        check = HandCheck.objects.create(
            hand=hand, game=game, number=hand.number, action=HandCheck.Action.CONFIRMED, seat=dispute.seat,
            via=HandCheck.Via.CORRECTION, by=dispute.by, hand_version=hand.version, record=None,
            note="corrected as disputed")
        Hand.objects.filter(pk=hand.pk).update(check_state=CONFIRMED)
        hand.check_state = CONFIRMED
        events.publish(events.HandConfirmed(game=game, hand=hand, check=check))
        return
    hand.check_state = WAITING
    hand.entered_side = entered_side(game, by) or hand.entered_side
    Hand.objects.filter(pk=hand.pk).update(check_state=WAITING, entered_side=hand.entered_side)


def count_unconfirmed(game: Game) -> None:
    """Count the unsettled hands and whether the game is provisional onto the row (the caller stores it)."""
    if game.confirmation != Confirmation.OPPONENTS:
        return
    game.unconfirmed = Hand.objects.filter(game=game, check_state__in=UNSETTLED).count()
    game.provisional = is_provisional(game, now=timezone.now())

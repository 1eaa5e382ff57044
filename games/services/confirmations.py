"""The other side confirms each hand (a game whose ``confirmation`` is ``opponents``), Bridgemate-style.

A recorded hand waits for a player of the side that did not enter it. That player confirms it on their own
phone (signed in as a seated player, or holding the table's code with their seat chosen), or on the
scorekeeper's phone handed across the table. A player who disagrees disputes it with what they say it was;
the scorekeeper then corrects the hand (a correction to the disputed version counts as confirmed by the
disputing side: ``after_correction``) or keeps it with a note. Play goes on meanwhile.

A finished game with hands still waiting or disputed is *provisional*: the standings leave it out until every
hand is settled or its league's window (``League.provisional_hours``) has passed (``provisional_release``,
run by the standings' catch-up).

Every write locks the game's row first, so two phones confirming at once confirm once (and a unique index on
the confirmations backs it up); asking again for what is already so changes nothing and gets the same answer.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import events, policy
from games.errors import HandChanged, InvalidInput, NoSuchThing, NotAllowed, NotFound, StateConflict
from games.idempotency import row_once
from games.models import Confirmation, Game, Hand, HandCheck
from games.rules import SEATS

from .hand_checks import CONFIRMED, DISPUTED, KEPT, UNSETTLED, awaited, is_provisional, latest_check, window
from .hands import check_writable, result_changed
from .hands import plain as plain_record

NOTE_LENGTH = 500


@dataclass(frozen=True)
class Confirmer:
    """Who says a hand is right or wrong, as the door knows them: the user, what their phone holds for the game
    (a table pass: the table's code and the seat chosen), and, on the scorekeeper's phone handed across the
    table, the seat of the player holding it."""

    user: Any
    table_pass: policy.TablePass | None = None
    handed_seat: str | None = None


def confirming_seat(game: Game, confirmer: Confirmer) -> tuple[str, Any]:
    """The seat that speaks for the confirmer, and how they came to (``HandCheck.Via``)."""
    user = confirmer.user
    if confirmer.handed_seat is not None:
        if confirmer.handed_seat not in SEATS:
            raise InvalidInput("say whose hands hold the phone: N, E, S or W", field="seat")
        if not policy.can_score_game(user, game):
            raise NotAllowed("only the scorekeeper's phone can be handed across to confirm")
        return confirmer.handed_seat, HandCheck.Via.HANDED
    seat = policy.own_seat(user, game)
    if seat is not None:
        return seat, HandCheck.Via.ACCOUNT
    held = confirmer.table_pass
    if held is not None:
        if held.game_id != game.pk or not policy.table_token_matches(game, held.token):
            raise NotAllowed("this table code does not open this game (it is another game's, or it was renewed); "
                             "scan the table's code again")
        if held.seat not in SEATS:
            raise InvalidInput("choose your seat (N, E, S or W) before confirming", field="seat")
        return held.seat, HandCheck.Via.CODE
    raise NotAllowed("only a player at the table confirms its hands: sign in as one, or scan the table's code "
                     "and choose your seat")


def locked_hand(game_id: int, number: int) -> tuple[Game, Hand]:
    locked = Game.objects.select_for_update(of=("self",)).select_related(
        "league", "north", "east", "south", "west").filter(pk=game_id).first()
    if locked is None:
        raise NotFound(f"there is no game {game_id}")
    if locked.confirmation != Confirmation.OPPONENTS:
        raise StateConflict("this game's hands are not confirmed by the other side (its confirmation is off)",
                            field="number")
    valid = isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**31
    hand = Hand.objects.filter(game=locked, number=number).first() if valid else None
    if hand is None:
        raise NoSuchThing(f"there is no hand {number} in this game", field="number")
    return locked, hand


def check_hand_version(hand: Hand, expected_versions: Collection[str] | None) -> None:
    if expected_versions is not None and hand.version not in expected_versions:
        raise HandChanged(
            f"hand {hand.number} has changed since your phone showed it (it was corrected); it now reads "
            f"version {hand.version}: look at it again before you confirm or dispute it"
        )


def check_other_side(game: Game, hand: Hand, seat: str) -> None:
    side = game.ruleset.side_of(seat)
    if hand.entered_side and side == hand.entered_side:
        raise NotAllowed(f"hand {hand.number} was entered by {side}; a player of {awaited(game, hand)} "
                         "confirms it, not the side that entered it")


def store_check(game: Game, hand: Hand, *, action, seat: str, via, by, state: str,
                record: Mapping[str, Any] | None = None, note: str = "") -> HandCheck:
    """The check in the trail, the hand's new state and the game's count of unsettled hands, all stored now;
    the hand and the game marked as changed (the sync feed and every page following the game see it)."""
    check = HandCheck.objects.create(
        hand=hand, game=game, number=hand.number, action=action, seat=seat, via=via,
        by=by if by is not None and by.is_authenticated else None, hand_version=hand.version,
        record=plain_record(record) if record is not None else None, note=note,
    )
    now = timezone.now()
    Hand.objects.filter(pk=hand.pk).update(check_state=state, updated_at=now)
    hand.check_state, hand.updated_at = state, now
    settle_unconfirmed(game, now=now)
    return check


def settle_unconfirmed(game: Game, *, now: datetime | None = None) -> None:
    """Count the game's unsettled hands again and store it, with whether the game is provisional; a game that
    stops being provisional (its last hand confirmed) enters the standings now."""
    now = now or timezone.now()
    was_provisional = game.provisional
    game.unconfirmed = Hand.objects.filter(game=game, check_state__in=UNSETTLED).count()
    game.provisional = is_provisional(game, now=now)
    game.updated_at = now
    Game.objects.filter(pk=game.pk).update(unconfirmed=game.unconfirmed, provisional=game.provisional,
                                           updated_at=now)
    if was_provisional != game.provisional:
        result_changed(game)


# --- confirming and disputing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    game: Game
    hand: Hand
    check: HandCheck
    replayed: bool = False


def checks_scope(game_id: int) -> str:
    return f"game:{game_id}:checks"


def keyed(*, game_id: int, confirmer: Confirmer, key: str | None, request: dict[str, Any], write) -> HandCheck:
    """``write()`` at most once per idempotency key of a signed-in confirmer (a phone with only the code has no
    keys: confirming and disputing are answered the same when asked again anyway); the check it stored."""
    def lock() -> None:
        Game.objects.select_for_update(of=("self",)).only("pk").filter(pk=game_id).first()

    return row_once(user=confirmer.user, scope=checks_scope(game_id), key=key, lock=lock,
                    request={**request, "seat": confirmer.handed_seat,
                             "pass": confirmer.table_pass.seat if confirmer.table_pass else None},
                    write=lambda: write().check, rows=HandCheck.objects.select_related("hand", "by"))


def hand_confirm(*, game: Game | int, number: int, confirmer: Confirmer,
                 expected_versions: Collection[str] | None = None, idempotency_key: str | None = None) -> HandCheck:
    """:func:`confirm`, at most once per ``idempotency_key``: the confirmation (``.hand``: the hand)."""
    game_id = game if isinstance(game, int) else game.pk
    return keyed(game_id=game_id, confirmer=confirmer, key=idempotency_key,
                 request={"action": "confirm", "number": number,
                          "versions": sorted(expected_versions) if expected_versions is not None else None},
                 write=lambda: confirm(game=game_id, number=number, confirmer=confirmer,
                                       expected_versions=expected_versions))


def hand_dispute(*, game: Game | int, number: int, confirmer: Confirmer, record: Mapping[str, Any], note: str = "",
                 expected_versions: Collection[str] | None = None, idempotency_key: str | None = None) -> HandCheck:
    """:func:`dispute`, at most once per ``idempotency_key``: the dispute (``.hand``: the hand)."""
    game_id = game if isinstance(game, int) else game.pk
    return keyed(game_id=game_id, confirmer=confirmer, key=idempotency_key,
                 request={"action": "dispute", "number": number, "record": record, "note": note,
                          "versions": sorted(expected_versions) if expected_versions is not None else None},
                 write=lambda: dispute(game=game_id, number=number, confirmer=confirmer, record=record, note=note,
                                       expected_versions=expected_versions))


@transaction.atomic
def confirm(*, game: Game | int, number: int, confirmer: Confirmer,
            expected_versions: Collection[str] | None = None) -> CheckResult:
    """A player of the other side says hand ``number`` is right.

    Refused (changing nothing) if the confirmer's side entered it, if they are not at the table, or if the hand
    changed since their phone showed it (``expected_versions``: :class:`HandChanged`, naming the version now).
    A hand already confirmed is answered with that confirmation and nothing is stored again, so two opponents
    confirming at once, or a phone sending its confirmation twice, confirm once.
    """
    locked, hand = locked_hand(game if isinstance(game, int) else game.pk, number)
    seat, via = confirming_seat(locked, confirmer)
    check_other_side(locked, hand, seat)
    if hand.check_state in (CONFIRMED, KEPT):
        done = latest_check(hand, CONFIRMED) or latest_check(hand, KEPT)
        if done is not None and (expected_versions is None or done.hand_version in expected_versions
                                 or hand.version in expected_versions):
            return CheckResult(game=locked, hand=hand, check=done, replayed=True)
    check_hand_version(hand, expected_versions)
    if locked.status == Game.Status.ABANDONED:
        raise StateConflict("the game was abandoned; its hands are no longer confirmed", field="number")
    check = store_check(locked, hand, action=HandCheck.Action.CONFIRMED, seat=seat, via=via,
                        by=confirmer.user, state=CONFIRMED)
    events.publish(events.HandConfirmed(game=locked, hand=hand, check=check))
    return CheckResult(game=locked, hand=hand, check=check)


@transaction.atomic
def dispute(*, game: Game | int, number: int, confirmer: Confirmer, record: Mapping[str, Any], note: str = "",
            expected_versions: Collection[str] | None = None) -> CheckResult:
    """A player of the other side says hand ``number`` was not as entered: ``record`` is the hand as they say it
    was (checked by the game's rules as a correction would be), ``note`` why. The scorekeeper's phone shows both.

    The same dispute sent again (same seat, same hand version, same record) is answered with the first.
    """
    if not isinstance(record, Mapping):
        raise InvalidInput("record must be the hand as you say it was", field="record")
    if len(note or "") > NOTE_LENGTH:
        raise InvalidInput(f"a note is at most {NOTE_LENGTH} characters", field="note")
    locked, hand = locked_hand(game if isinstance(game, int) else game.pk, number)
    seat, via = confirming_seat(locked, confirmer)
    check_other_side(locked, hand, seat)
    if hand.check_state in (CONFIRMED, KEPT):
        done = latest_check(hand, hand.check_state)
        who = f" by {done.seat or 'the scorekeeper'}" if done is not None else ""
        raise StateConflict(f"hand {hand.number} was already {hand.check_state}{who}; the scorekeeper can still "
                            "correct it", field="number")
    same = (HandCheck.objects.filter(hand=hand, action=HandCheck.Action.DISPUTED, seat=seat,
                                     hand_version=hand.version).order_by("-at", "-id").first())
    if same is not None and same.record == plain_record(record) and same.note == (note or ""):
        return CheckResult(game=locked, hand=hand, check=same, replayed=True)
    check_hand_version(hand, expected_versions)
    check_disputed_record(locked, hand, record)
    check = store_check(locked, hand, action=HandCheck.Action.DISPUTED, seat=seat, via=via, by=confirmer.user,
                        state=DISPUTED, record=record, note=note or "")
    events.publish(events.HandDisputed(game=locked, hand=hand, check=check))
    return CheckResult(game=locked, hand=hand, check=check)


def check_disputed_record(game: Game, hand: Hand, record: Mapping[str, Any]) -> None:
    """The disputed version must be a hand the rules allow at that point of the game (the rules engine's
    :class:`InvalidHand` says what is wrong, as for any hand)."""
    ruleset = game.ruleset
    before = Hand.objects.filter(game=game, number=hand.number - 1).first()
    start = ruleset.initial_state() if before is None else ruleset.resume(
        totals=before.totals, extras=before.extras, hands_played=before.number)
    ruleset.play(start, record)


def hand_keep(*, game: Game | int, number: int, by, note: str, idempotency_key: str | None = None) -> HandCheck:
    """:func:`keep`, at most once per ``idempotency_key``: the note kept (``.hand``: the hand)."""
    game_id = game if isinstance(game, int) else game.pk
    return keyed(game_id=game_id, confirmer=Confirmer(user=by), key=idempotency_key,
                 request={"action": "keep", "number": number, "note": note},
                 write=lambda: keep(game=game_id, number=number, by=by, note=note))


@transaction.atomic
def keep(*, game: Game | int, number: int, by, note: str) -> CheckResult:
    """The scorekeeper keeps a disputed hand as entered, saying why in ``note`` (which the trail shows)."""
    note = (note or "").strip()
    if not note:
        raise InvalidInput("say why the hand stays as entered: the note is shown to the table", field="note")
    if len(note) > NOTE_LENGTH:
        raise InvalidInput(f"a note is at most {NOTE_LENGTH} characters", field="note")
    locked, hand = locked_hand(game if isinstance(game, int) else game.pk, number)
    check_writable(locked, by)
    if hand.check_state != DISPUTED:
        raise StateConflict(f"hand {hand.number} is not disputed; only a disputed hand is kept with a note",
                            field="number")
    check = store_check(locked, hand, action=HandCheck.Action.KEPT, seat="", via=HandCheck.Via.SCOREKEEPER, by=by,
                        state=KEPT, note=note)
    return CheckResult(game=locked, hand=hand, check=check)


# --- the window ------------------------------------------------------------------------------------------


def provisional_release(now: datetime | None = None) -> list[int]:
    """Provisional games whose window has passed enter the standings as they stand (their unconfirmed hands
    counted as entered). The ids of the games released. Run by the standings' catch-up (every five minutes)."""
    now = now or timezone.now()
    released = []
    for game in Game.objects.filter(provisional=True).select_related("league").order_by("finished_at", "pk"):
        if game.finished_at is not None and game.finished_at + window(game) > now:
            continue
        with transaction.atomic():
            changed = Game.objects.filter(pk=game.pk, provisional=True).update(provisional=False, updated_at=now)
            if changed:
                game.provisional = False
                result_changed(game)
                released.append(game.pk)
    return released

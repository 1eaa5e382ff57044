"""Recording, correcting and undoing hands.

A hand is checked and scored by the rules engine against the game so far, then stored in
one transaction with the game row locked, so two phones entering the same hand can never
both succeed. Cached totals on the game always equal a replay of its stored hands.

A write sent with an idempotency key stores its answer in the same transaction (``games.idempotency``):
a retry gets that answer back, and a request that fails leaves its key free at once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import events, policy, statements
from games.errors import (
    GameClosed,
    HandChanged,
    HandConflict,
    NoSuchThing,
    NotAllowed,
    NotFound,
)
from games.idempotency import fingerprint, remember_answer, stored_answer
from games.models import ChangedResult, Confirmation, Game, Hand, HandRevision
from games.rules import GameState, InvalidHand
from games.statements import read_for_write
from games.summary import game_state

from .games import abandon, game_snapshot, keyed_game_write
from .hand_checks import after_correction, count_unconfirmed, entered_side, is_provisional
from .matches import match_refresh

APPEND_ATTEMPTS = 3


def hands_scope(game: Game) -> str:
    """Where the keys of hands recorded in this game live."""
    return f"game:{game.pk}:hands"


@dataclass(frozen=True)
class HandResult:
    """What recording a hand gave: the response every door shows, and the rows when not a replay."""

    payload: dict[str, Any]
    hand: Hand | None = None
    game: Game | None = None
    replayed: bool = False


ATOMS = (str, int, bool, float, type(None))


def plain(value: Any) -> Any:
    """Engine values (read-only mappings, tuples) as plain JSON-ready data."""
    if type(value) in ATOMS:  # most values: answered without the costlier checks below
        return value
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def hand_payload(hand: Hand, game: Game) -> dict[str, Any]:
    """The hand and the game after it: the body of a 201 and of every idempotent replay."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "delta": dict(hand.delta),
        **{key: value for key, value in game_snapshot(game).items() if key != "hand_count"},
    }


def apply_state(game: Game, state: GameState) -> None:
    """Copy a state's totals, status and winner onto the game row (the caller saves it)."""
    game.totals = plain(state.totals)
    game.extras = plain(state.extras)
    game.hand_count = state.hands_played
    if state.finished:
        if game.status != Game.Status.FINISHED:
            game.finished_at = timezone.now()
        game.status = Game.Status.FINISHED
        game.winner = state.winner or ""
    else:
        game.status = Game.Status.IN_PROGRESS
        game.winner = ""
        game.finished_at = None


GAME_STATE_FIELDS = ["totals", "extras", "hand_count", "status", "winner", "finished_at", "updated_at",
                     "unconfirmed", "provisional"]


def lock_game(game: Game | int, by) -> Game:
    """The game's row, locked until the transaction ends, if ``by`` may change it."""
    locked = locked_game(game if isinstance(game, int) else game.pk, by)
    check_writable(locked, by)
    return locked


def locked_game(game_id: int, by) -> Game:
    """The game's row, locked until the transaction ends, with its league and ``by``'s role in it: one
    statement (``statements.read_for_write``). :class:`NotFound` if there is no such game; whether ``by``
    may change it is :func:`check_writable`'s to say."""
    locked = read_for_write(game_id, by)
    if locked is None:
        raise NotFound(f"there is no game {game_id}")
    return locked


def check_writable(game: Game, by) -> None:
    if not policy.can_score_game(by, game):
        raise NotAllowed("you cannot keep score in this game")
    if game.status == Game.Status.ABANDONED:
        raise GameClosed("the game was abandoned; it cannot be changed")


# --- recording -------------------------------------------------------------------------------------


def hand_record(
    *,
    game: Game | int,
    record: Mapping[str, Any],
    by,
    expected_number: int | None = None,
    idempotency_key: str | None = None,
) -> HandResult:
    """Record the next hand of ``game`` (a game, or a game's id: it is read here in any case).

    ``expected_number``: the number the scorekeeper's screen expects this hand to get; if another
    hand got there first, :class:`HandConflict` carries the game as it now stands.
    ``idempotency_key``: a retry with the same key and the same hand gets the first result and
    stores nothing; the same key with a different hand is refused. A retry racing the first request
    waits for it on the game's row lock.
    A game id with no game is :class:`NotFound`; a game ``by`` may not score is :class:`NotAllowed` (a
    door that hides games from those who may not see them checks that when it gets this refusal).
    """
    game_id = game if isinstance(game, int) else game.pk
    request_hash = fingerprint({"record": record, "expected_number": expected_number}) if idempotency_key else ""
    # In two round trips to PostgreSQL (``statements.transaction``), unless the hand ends a match, which needs
    # the ORM's row locks: that one is recorded again in Django's own transaction.
    in_two_round_trips = True
    attempt = 0
    while True:
        try:
            with statements.transaction() if in_two_round_trips else transaction.atomic():
                result = append_hand(game_id=game_id, record=record, by=by, expected_number=expected_number,
                                     idempotency_key=idempotency_key, request_hash=request_hash,
                                     look_up_key=attempt > 0)
        except statements.NotInTwoRoundTrips:
            in_two_round_trips = False
            continue
        except IntegrityError:
            # The key was used before for another request (its answer is looked up on the next
            # attempt, which refuses it), or, where the row lock is not enforced (SQLite without
            # IMMEDIATE transactions), another hand took this number. Nothing was stored; try again.
            attempt += 1
            if attempt == APPEND_ATTEMPTS:
                raise
            continue
        result.tell()
        return result.result


def append_hand(*, game_id, record, by, expected_number, idempotency_key, request_hash, look_up_key) -> Appended:
    locked = locked_game(game_id, by)
    keyed = bool(idempotency_key) and by.is_authenticated
    # Under the lock: a retry of a request still being stored waits for it and finds its answer here.
    # A request whose expected number is the next one cannot have been stored already (its hand would
    # have that number), so the look-up is left to the key's unique index: reusing the key for another
    # request fails the insert below, and the next attempt looks it up and refuses it.
    if keyed and (look_up_key or expected_number is None or expected_number != locked.hand_count + 1):
        stored = stored_answer(user=by, scope=hands_scope(locked), key=idempotency_key, request_hash=request_hash)
        if stored is not None:
            return Appended(HandResult(payload=stored, replayed=True))
    check_writable(locked, by)
    if expected_number is not None and expected_number != locked.hand_count + 1:
        raise HandConflict(
            f"hand {expected_number} was expected, but the game has {locked.hand_count} hands; "
            f"the next is hand {locked.hand_count + 1}",
            state=game_snapshot(locked),
        )
    now = timezone.now()
    # A club night's round whose time is up: the hand in play, this one, is the game's last.
    time_up = locked.time_is_up(now)
    if time_up:
        locked.end_after(locked.hand_count + 1)
    state = locked.ruleset.play(game_state(locked), record)
    was_finished = locked.status == Game.Status.FINISHED
    apply_state(locked, state)
    locked.updated_at = now
    side = ""
    if locked.confirmation == Confirmation.OPPONENTS:
        # The new hand waits for the other side: one more unsettled hand, so a game it wins is provisional.
        side = entered_side(locked, by)
        locked.unconfirmed += 1
        locked.provisional = is_provisional(locked, now=locked.updated_at)
    finishing_match = state.finished and locked.match_id
    if finishing_match and statements.in_two_round_trips():
        raise statements.NotInTwoRoundTrips
    # The hand, the game's new state and the key's answer need nothing from one another: they are sent
    # together, one round trip for the three (but when the game ends a match, which reads the stored game).
    with nullcontext() if finishing_match else statements.sent_together():
        hand, hand_id = stored_hand(locked, state.hands[-1], record, by, side, options_changed=time_up)
        if finishing_match:
            match_refresh(match=locked.match)
        payload = hand_payload(hand, locked)
        if keyed:
            remember_answer(user=by, scope=hands_scope(locked), key=idempotency_key, request_hash=request_hash,
                            answer=payload, game=locked)
        if state.finished != was_finished:
            note_result_changed(locked)
    return Appended(HandResult(payload=payload, hand=hand, game=locked), hand_id=hand_id,
                    finished=state.finished and not was_finished, result_changed=state.finished != was_finished)


@dataclass
class Appended:
    """A hand appended (or a replay's stored answer), and what is told about it once it is committed."""

    result: HandResult
    hand_id: statements.Sent | None = None
    finished: bool = False
    result_changed: bool = False

    def tell(self) -> None:
        """After the commit: the hand's id (the insert's answer) on the hand, and whoever follows told."""
        hand, game = self.result.hand, self.result.game
        if hand is None or game is None:
            return
        assert self.hand_id is not None and self.hand_id.row is not None  # the insert returns the hand's id
        hand.pk = self.hand_id.row[0]
        events.publish(events.HandRecorded(game=game, hand=hand))
        if self.finished:
            events.publish(events.GameFinished(game=game))
        if self.result_changed:
            events.publish(events.GameResultChanged(game=game))


def stored_hand(game: Game, scored, record: Mapping[str, Any], by, side: str = "",
                options_changed: bool = False) -> tuple[Hand, statements.Sent]:
    """Insert the scored hand and store the game's new state (``apply_state``, its ``updated_at`` set, and its
    options when ``options_changed``): the hand as stored, but for its id, which the insert gives (inside
    ``statements.sent_together``, once it ends)."""
    values = {"game": game.pk, "number": scored.number, "record": plain(record), "dealer": scored.dealer,
              "delta": plain(scored.delta), "totals": plain(scored.totals), "extras": plain(scored.extras),
              "details": plain(scored.details), "entered_by": by.pk if by.is_authenticated else None,
              "entered_at": game.updated_at, "updated_at": game.updated_at,
              # In a game whose hands the other side confirms: waiting for them (``side`` entered it).
              "check_state": "waiting" if game.confirmation == Confirmation.OPPONENTS else "",
              "entered_side": side}
    sent = statements.insert_sent(Hand, values)
    changed = [*GAME_STATE_FIELDS, "options"] if options_changed else GAME_STATE_FIELDS
    statements.update(Game, game.pk, {name: getattr(game, name) for name in changed})
    hand = Hand.from_db(connection.alias, [field.attname for field in Hand._meta.concrete_fields],
                        [sent.row[0] if sent.row else None, *values.values()])
    hand.game = game
    return hand, sent


# --- corrections -----------------------------------------------------------------------------------


def guard_match_order(game: Game, finished_after: bool, winner_after: str) -> None:
    """A match game whose next game has begun must stay finished with the same winner."""
    if not game.match_id or game.status != Game.Status.FINISHED:
        return
    if finished_after and winner_after == game.winner:
        return
    if Game.objects.filter(match_id=game.match_id, match_game_number__gt=game.match_game_number).exists():
        raise GameClosed(
            f"game {game.match_game_number + 1} of this match has begun, so this game's result "
            "can no longer change who won it"
        )


def check_version(hand: Hand, expected_versions: Collection[str] | None) -> None:
    """Refuse a change made from a copy of the hand that is no longer the stored one."""
    if expected_versions is not None and hand.version not in expected_versions:
        raise HandChanged(
            f"hand {hand.number} has changed since it was read (someone corrected it, or an earlier hand, "
            "which scores it again); read it again and make the change on what it says now"
        )


def hand_correct(*, game: Game, number: int, record: Mapping[str, Any], by, reason: str = "",
                 merge: bool = False, idempotency_key: str | None = None,
                 expected_versions: Collection[str] | None = None) -> Game:
    """Correct hand ``number`` and re-score it and every hand after it.

    ``merge``: ``record`` holds only the fields that change; they are merged into the stored record
    under the game's lock, so two corrections of different fields cannot lose one another.
    ``expected_versions``: the hand's ``version`` as the caller read it (any of these); if it has
    changed since, :class:`HandChanged` and nothing is stored.
    Refused, changing nothing, if the correction would make a later hand invalid (a blind nil no
    longer allowed, a hand played after the game would now have been won). A retry with the same
    ``idempotency_key`` changes nothing more.
    """
    versions = sorted(expected_versions) if expected_versions is not None else None
    return keyed_game_write(
        game=game, by=by, action="corrections", key=idempotency_key,
        request={"number": number, "record": record, "reason": reason, "merge": merge, "versions": versions},
        write=lambda: correct(game=game, number=number, record=record, by=by, reason=reason, merge=merge,
                              expected_versions=expected_versions),
    )


@transaction.atomic
def correct(*, game: Game, number: int, record: Mapping[str, Any], by, reason: str, merge: bool,
            expected_versions: Collection[str] | None = None) -> Game:
    locked = lock_game(game, by)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= locked.hand_count:
        raise NoSuchThing(f"there is no hand {number} in this game", field="number")
    hands = list(Hand.objects.filter(game=locked, number__gte=number - 1).order_by("number"))
    before = hands[0] if number > 1 else None
    changed = hands[1:] if number > 1 else hands
    if merge:
        record = {**changed[0].record, **record}
    ruleset = locked.ruleset
    start = ruleset.initial_state() if before is None else ruleset.resume(
        totals=before.totals, extras=before.extras, hands_played=before.number
    )
    try:
        state = ruleset.replay([record, *(hand.record for hand in changed[1:])], start=start)
    except InvalidHand as error:
        if error.number == number:
            raise
        raise InvalidHand(
            error.number,
            f"this correction would make hand {error.number} invalid: {error.message}",
            field=error.field,
        ) from None
    guard_match_order(locked, state.finished, state.winner or "")
    # Checked once the correction is known to be a valid one, so a bad correction is told what is wrong.
    check_version(changed[0], expected_versions)

    previous_record = changed[0].record
    changed[0].record = plain(record)
    for hand, scored in zip(changed, state.hands, strict=True):
        hand.delta = plain(scored.delta)
        hand.totals = plain(scored.totals)
        hand.extras = plain(scored.extras)
        hand.details = plain(scored.details)
        hand.updated_at = timezone.now()
    Hand.objects.bulk_update(changed, ["record", "delta", "totals", "extras", "details", "updated_at"])
    revision = HandRevision.objects.create(
        game=locked, number=number, action=HandRevision.Action.CORRECT,
        previous_record=previous_record, new_record=plain(record), changed_by=by, reason=reason or "",
    )
    if locked.confirmation == Confirmation.OPPONENTS:
        after_correction(locked, changed[0], record, by)
    # Told before the standings follow (settle): the event is built after the commit, from the settled game.
    events.publish(events.HandCorrected(game=locked, revision=revision))
    settle(locked, state)
    return locked


def hand_undo(*, game: Game, by, reason: str = "", number: int | None = None,
              idempotency_key: str | None = None, expected_versions: Collection[str] | None = None) -> Game:
    """Take back the last hand; its record is kept in the revision history.

    ``number``: the hand the caller means to take back; refused with :class:`HandConflict` unless
    it is still the last hand (another hand may have been added meanwhile). ``expected_versions``:
    as for :func:`hand_correct`. A retry with the same ``idempotency_key`` takes back nothing more.
    """
    versions = sorted(expected_versions) if expected_versions is not None else None
    return keyed_game_write(
        game=game, by=by, action="undo", key=idempotency_key,
        request={"number": number, "reason": reason, "versions": versions},
        write=lambda: undo(game=game, by=by, reason=reason, number=number, expected_versions=expected_versions),
    )


@transaction.atomic
def undo(*, game: Game, by, reason: str, number: int | None,
         expected_versions: Collection[str] | None = None) -> Game:
    locked = lock_game(game, by)
    if locked.hand_count == 0:
        raise NoSuchThing("there is no hand to undo", field="number")
    if number is not None and not 1 <= number <= locked.hand_count:
        raise NoSuchThing(f"there is no hand {number} in this game", field="number")
    if number is not None and number != locked.hand_count:
        raise HandConflict(
            f"only the last hand (hand {locked.hand_count}) can be undone, not hand {number}; "
            "correct an earlier hand instead",
            state=game_snapshot(locked),
        )
    guard_match_order(locked, False, "")
    last = Hand.objects.get(game=locked, number=locked.hand_count)
    check_version(last, expected_versions)
    before = Hand.objects.filter(game=locked, number=locked.hand_count - 1).first()
    ruleset = locked.ruleset
    state = ruleset.initial_state() if before is None else ruleset.resume(
        totals=before.totals, extras=before.extras, hands_played=before.number
    )
    revision = HandRevision.objects.create(
        game=locked, number=last.number, action=HandRevision.Action.UNDO,
        previous_record=last.record, new_record=None, changed_by=by, reason=reason or "",
    )
    last.delete()
    # Told before the standings follow (settle): the event is built after the commit, from the settled game.
    events.publish(events.HandCorrected(game=locked, revision=revision))
    settle(locked, state)
    return locked


@transaction.atomic
def game_end_now(*, game: Game, by) -> Game:
    """End a game still being played with the hands played so far: the side ahead wins and sides level draw, as
    after a game's last hand (its ``last_hand`` becomes the last hand played). A club night's director does this
    to a table when its round or the night ends. A game with no hands is abandoned instead: there is no result."""
    locked = lock_game(game, by)
    if locked.status != Game.Status.IN_PROGRESS:
        raise GameClosed(f"the game is already {locked.get_status_display().lower()}")
    if locked.hand_count == 0:
        return abandon(game=locked, by=by)
    locked.end_after(locked.hand_count)
    locked.save(update_fields=["options"])
    hands = list(Hand.objects.filter(game=locked, number__gte=locked.hand_count - 1).order_by("number"))
    ruleset = locked.ruleset
    start = ruleset.initial_state() if len(hands) == 1 else ruleset.resume(
        totals=hands[0].totals, extras=hands[0].extras, hands_played=hands[0].number)
    settle(locked, ruleset.replay([hands[-1].record], start=start))
    return locked


def settle(game: Game, state: GameState) -> None:
    """Store a re-scored state on the game and tell whoever follows results that it changed.

    Any change to a finished game (or one that was finished) is news for its league: even with the same
    winner and totals, a corrected hand changes its players' figures.
    """
    was_status = game.status
    apply_state(game, state)
    if game.confirmation == Confirmation.OPPONENTS:
        count_unconfirmed(game)
    game.save(update_fields=GAME_STATE_FIELDS)
    if game.match_id:
        match_refresh(match=game.match)
    if game.status == Game.Status.FINISHED and was_status != Game.Status.FINISHED:
        events.publish(events.GameFinished(game=game))
    if Game.Status.FINISHED in (was_status, game.status):
        result_changed(game)


def result_changed(game: Game) -> None:
    """The game's result may have changed (it finished, or a finished game was corrected or undone): noted for
    its league's standings in this transaction (:func:`note_result_changed`), and published."""
    note_result_changed(game)
    events.publish(events.GameResultChanged(game=game))


def note_result_changed(game: Game) -> None:
    """Note, in the transaction that changes it, that the game's result may have changed (``ChangedResult``: the
    league's next standings update reads it)."""
    if game.league_id is not None:
        statements.put(ChangedResult, {"league": game.league_id, "game_id": game.pk, "noted_at": timezone.now()})

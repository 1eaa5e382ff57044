"""A retried submission with the same idempotency key never records a hand twice."""

from __future__ import annotations

import pytest
from django.db import DatabaseError

from games.errors import IdempotencyMismatch
from games.models import Hand, IdempotencyRecord
from games.rules import InvalidHand
from games.services import hand_correct, hand_record

HAND = {"face_cards": {"NS": 10, "EW": 6}, "trump_stack": {"holder": "N", "size": 4}}
OTHER = {"face_cards": {"NS": 6, "EW": 10}, "trump_stack": {"holder": "N", "size": 4}}


def test_a_repeat_returns_the_first_result_and_stores_nothing(start_game, owner):
    game = start_game("thieving_stink")
    first = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    again = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert again.replayed and again.payload == first.payload
    assert Hand.objects.filter(game=game).count() == 1


def test_the_repeat_returns_the_first_result_even_after_more_hands(start_game, owner):
    game = start_game("thieving_stink")
    first = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    hand_record(game=game, record=OTHER, by=owner, idempotency_key="tap-2")
    assert hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1").payload == first.payload
    assert Hand.objects.filter(game=game).count() == 2


def test_the_same_key_with_a_different_hand_is_refused(start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    with pytest.raises(IdempotencyMismatch):
        hand_record(game=game, record=OTHER, by=owner, idempotency_key="tap-1")
    assert Hand.objects.filter(game=game).count() == 1


def test_keys_belong_to_one_user_and_one_game(start_game, owner, scorekeeper):
    game, other_game = start_game("thieving_stink"), start_game("thieving_stink")
    hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    hand_record(game=game, record=HAND, by=scorekeeper, idempotency_key="tap-1")
    hand_record(game=other_game, record=HAND, by=owner, idempotency_key="tap-1")
    assert Hand.objects.filter(game=game).count() == 2
    assert Hand.objects.filter(game=other_game).count() == 1


def test_a_refused_hand_frees_its_key_for_a_corrected_retry(start_game, owner):
    game = start_game("thieving_stink")
    bad = {"face_cards": {"NS": 10, "EW": 10}, "trump_stack": {"holder": "N", "size": 4}}
    with pytest.raises(InvalidHand):
        hand_record(game=game, record=bad, by=owner, idempotency_key="tap-1")
    assert not IdempotencyRecord.objects.exists()
    hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert Hand.objects.filter(game=game).count() == 1


def test_a_request_that_dies_after_storing_its_hand_leaves_neither_hand_nor_key(start_game, owner, monkeypatch):
    """The key's answer is written in the hand's own transaction: a failure anywhere rolls both back,
    so the retry is not kept waiting and stores the hand once."""
    game = start_game("thieving_stink")

    def database_gone(**kwargs):
        raise DatabaseError("server closed the connection unexpectedly")

    monkeypatch.setattr("games.services.hands.remember_answer", database_gone)
    with pytest.raises(DatabaseError):
        hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert not Hand.objects.filter(game=game).exists() and not IdempotencyRecord.objects.exists()
    monkeypatch.undo()
    first = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    again = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert not first.replayed and again.replayed and again.payload == first.payload
    assert Hand.objects.filter(game=game).count() == 1


def test_the_stored_answer_is_the_hand_as_every_door_shows_it(start_game, owner):
    game = start_game("thieving_stink")
    first = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    stored = IdempotencyRecord.objects.get(key="tap-1")
    assert stored.scope == f"game:{game.pk}:hands" and stored.game_id == game.pk
    assert stored.result == first.payload and first.payload["number"] == 1


def test_a_key_reused_for_the_next_hand_is_refused_and_stores_nothing(start_game, owner):
    """With the next ``expected_number`` the key is not looked up first: its unique index refuses the
    reuse, the hand is rolled back, and the retry looks the key up and refuses it."""
    game = start_game("thieving_stink")
    hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="tap-1")
    with pytest.raises(IdempotencyMismatch):
        hand_record(game=game, record=OTHER, by=owner, expected_number=2, idempotency_key="tap-1")
    assert Hand.objects.filter(game=game).count() == 1
    assert IdempotencyRecord.objects.count() == 1


def test_a_repeat_with_the_expected_number_gets_the_first_answer(start_game, owner):
    game = start_game("thieving_stink")
    first = hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="tap-1")
    hand_record(game=game, record=OTHER, by=owner, expected_number=2, idempotency_key="tap-2")
    again = hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="tap-1")
    assert again.replayed and again.payload == first.payload
    assert Hand.objects.filter(game=game).count() == 2


def test_every_write_that_takes_a_key_is_done_once(start_game, owner, seats, league):
    from games.models import Game, HandRevision, Match
    from games.services import game_abandon, game_start, hand_undo, match_start

    started = [game_start(game_type="thieving_stink", seats=seats, by=owner, league=league, idempotency_key="g")
               for _ in range(2)]
    assert started[0].pk == started[1].pk and Game.objects.count() == 1
    matches = [match_start(game_type="trumps", seats=seats, by=owner, league=league, idempotency_key="m")
               for _ in range(2)]
    assert matches[0].pk == matches[1].pk and Match.objects.count() == 1
    game = started[0]
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=OTHER, by=owner)
    for _ in range(2):
        hand_correct(game=game, number=1, record=OTHER, by=owner, reason="swapped", idempotency_key="c")
        hand_undo(game=game, by=owner, number=2, idempotency_key="u")
    assert HandRevision.objects.filter(game=game, action="correct").count() == 1
    assert HandRevision.objects.filter(game=game, action="undo").count() == 1
    for _ in range(2):
        assert game_abandon(game=game, by=owner, idempotency_key="a").status == "abandoned"


def test_a_key_reused_for_a_different_game_start_is_refused(owner, seats, league):
    from games.services import game_start

    game_start(game_type="thieving_stink", seats=seats, by=owner, league=league, idempotency_key="g")
    with pytest.raises(IdempotencyMismatch):
        game_start(game_type="smudge", seats=seats, by=owner, league=league, idempotency_key="g")

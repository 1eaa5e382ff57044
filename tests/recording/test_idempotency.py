"""A retried submission with the same idempotency key never records a hand twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import IdempotencyInFlight, IdempotencyMismatch
from games.models import Hand, IdempotencyRecord
from games.rules import InvalidHand
from games.services import hand_record

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


def test_a_repeat_while_the_first_is_in_flight_is_told_to_retry(start_game, owner):
    game = start_game("thieving_stink")
    IdempotencyRecord.objects.create(user=owner, game=game, key="tap-1",
                                     request_hash=_hash(HAND))
    with pytest.raises(IdempotencyInFlight):
        hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert not Hand.objects.filter(game=game).exists()


def test_a_claim_left_by_a_request_that_died_is_taken_over(start_game, owner):
    game = start_game("thieving_stink")
    IdempotencyRecord.objects.create(user=owner, game=game, key="tap-1", request_hash=_hash(HAND),
                                     created_at=timezone.now() - timedelta(minutes=5))
    result = hand_record(game=game, record=HAND, by=owner, idempotency_key="tap-1")
    assert not result.replayed
    assert Hand.objects.filter(game=game).count() == 1


def _hash(record):
    from games.services.hands import request_hash

    return request_hash(record, None)

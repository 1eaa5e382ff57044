"""Idempotency-Key: a retried hand gets the first response and stores nothing new."""

from __future__ import annotations

from games.models import Hand, IdempotencyRecord
from tests.api.conftest import SHORT_HAND, SPADES_HAND


def post_hand(client, game, body, key):
    return client.post(f"/api/v1/games/{game.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_replay_returns_the_first_response_and_one_hand(as_owner, spades):
    first = post_hand(as_owner, spades, {**SPADES_HAND, "expected_number": 1}, "phone-1-hand-1")
    again = post_hand(as_owner, spades, {**SPADES_HAND, "expected_number": 1}, "phone-1-hand-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Hand.objects.filter(game=spades).count() == 1


def test_replay_after_later_hands_still_returns_the_first_response(as_owner, spades):
    first = post_hand(as_owner, spades, SPADES_HAND, "k1")
    post_hand(as_owner, spades, SPADES_HAND, "k2")
    again = post_hand(as_owner, spades, SPADES_HAND, "k1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert Hand.objects.filter(game=spades).count() == 2


def test_same_key_different_body_is_422(as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND, "k1")
    other = {**SPADES_HAND, "note": "a different hand"}
    response = post_hand(as_owner, spades, other, "k1")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_mismatch"
    assert Hand.objects.filter(game=spades).count() == 1


def test_a_request_that_failed_inside_the_server_is_retried_at_once(as_owner, spades, monkeypatch):
    from django.db import DatabaseError

    def database_gone(**kwargs):
        raise DatabaseError("server closed the connection unexpectedly")

    monkeypatch.setattr("games.services.hands.remember_answer", database_gone)
    as_owner.raise_request_exception = False
    assert post_hand(as_owner, spades, SPADES_HAND, "k1").status_code == 500
    monkeypatch.undo()
    retried = post_hand(as_owner, spades, SPADES_HAND, "k1")
    assert retried.status_code == 201 and retried.json()["number"] == 1
    assert Hand.objects.filter(game=spades).count() == 1 and IdempotencyRecord.objects.count() == 1


def test_a_refused_hand_frees_its_key(as_owner, spades):
    assert post_hand(as_owner, spades, SHORT_HAND, "k1").status_code == 400
    assert post_hand(as_owner, spades, SHORT_HAND, "k1").status_code == 400
    assert post_hand(as_owner, spades, SPADES_HAND, "k1").status_code == 201


def test_keys_belong_to_their_user(client_for, owner, scorekeeper, spades):
    first = post_hand(client_for(owner), spades, SPADES_HAND, "k1")
    second = post_hand(client_for(scorekeeper), spades, SPADES_HAND, "k1")
    assert first.json()["number"] == 1
    assert second.json()["number"] == 2


def test_a_bad_key_is_400(as_owner, spades):
    response = post_hand(as_owner, spades, SPADES_HAND, "k" * 201)
    assert response.status_code == 400
    assert "idempotency_key" in response.json()
    assert not Hand.objects.filter(game=spades).exists()

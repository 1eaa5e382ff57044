"""Fixtures for the page tests: signed-in clients for the named actors, and a hand form poster."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse


@pytest.fixture
def signed_in(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in


@pytest.fixture
def owner_client(signed_in, owner):
    return signed_in(owner)


@pytest.fixture
def post_hand(owner_client):
    """Post a hand form to a game: ``post_hand(game, bid_N="3", ...)``, with a fresh key and the next number."""

    def post(game, /, client=None, key=None, expected=None, **fields):
        game.refresh_from_db()
        data = {"idempotency_key": key or uuid.uuid4().hex,
                "expected_number": expected if expected is not None else game.hand_count + 1, **fields}
        return (client or owner_client).post(reverse("hand-record", args=[game.pk]), data)

    return post


def spades_fields(bids, tricks) -> dict[str, str]:
    """Form fields for a Spades hand: bids and tricks in seat order N, E, S, W."""
    fields = {}
    for seat, bid, took in zip("NESW", bids, tricks, strict=True):
        fields[f"bid_{seat}"] = str(bid)
        fields[f"tricks_{seat}"] = str(took)
    return fields


SMUDGE_MADE = {"bidder": "N", "bid": "2", "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": "no"}
TRUMPS_MADE = {"declarer": "N", "bid": "7", "trump": "hearts", "double": "no", "tricks": "8"}
STINK_HAND = {"face_NS": "6", "face_EW": "7", "stack_size": "7", "stack_holder": "E"}

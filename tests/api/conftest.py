"""API clients for the named actors (tests/conftest.py), and hands to record."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

# A Spades hand: NS bid 7 and take 9 (+72, 2 bags); EW bid 5 and take 4 (-50).
SPADES_HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}
# Short by one trick: the tricks add up to 12.
SHORT_HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 4, "W": 3}}


@pytest.fixture
def client_for(db):
    """``client_for(user)``: a client sending the user's token; ``client_for(None)``: anonymous."""

    def make(user) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def as_owner(client_for, owner):
    return client_for(owner)


@pytest.fixture
def anonymous(client_for):
    return client_for(None)


@pytest.fixture
def spades(start_game):
    """A Spades league game to 200."""
    return start_game("spades", target=200)


@pytest.fixture
def private_league(league):
    league.is_public = False
    league.save(update_fields=["is_public"])
    return league

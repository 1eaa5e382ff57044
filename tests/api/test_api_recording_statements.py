"""Recording a hand reads the game, its league and the writer's role in one locked statement."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Hand
from tests.api.conftest import SHORT_HAND, SPADES_HAND

# The token; the game locked, with its league and your role; the hand; the game's totals; the key's answer.
RECORDING_QUERIES = 5
# Transaction control (BEGIN and COMMIT, or a savepoint inside a test's transaction) is not counted.
TRANSACTION = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT")


def post_hand(client, game, body, key):
    return client.post(f"/api/v1/games/{game.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_recording_a_hand_takes_five_statements(client_for, scorekeeper, spades):
    client = client_for(scorekeeper)
    post_hand(client, spades, {**SPADES_HAND, "expected_number": 1}, "k1")
    with CaptureQueriesContext(connection) as captured:
        response = post_hand(client, spades, {**SPADES_HAND, "expected_number": 2}, "k2")
    assert response.status_code == 201 and response.json()["number"] == 2
    statements = [query["sql"] for query in captured.captured_queries if not query["sql"].startswith(TRANSACTION)]
    assert len(statements) == RECORDING_QUERIES, statements
    token, game, hand, totals, key = statements
    assert "authtoken_token" in token
    assert "games_membership" in game
    assert "FOR UPDATE" in game or not connection.features.has_select_for_update
    assert hand.startswith('INSERT INTO "games_hand"') and totals.startswith('UPDATE "games_game"')
    assert key.startswith('INSERT INTO "games_idempotencyrecord"')


def test_a_member_who_may_not_score_is_refused(client_for, member, spades):
    response = post_hand(client_for(member), spades, SPADES_HAND, "k1")
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert not Hand.objects.filter(game=spades).exists()


@pytest.mark.parametrize("body", [SPADES_HAND, SHORT_HAND, {"bids": "junk"}, []])
def test_a_private_game_is_404_to_a_stranger_whatever_the_body(client_for, stranger, private_league, spades, body):
    response = post_hand(client_for(stranger), spades, body, "k1")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert not Hand.objects.filter(game=spades).exists()


def test_a_bad_idempotency_key_to_a_private_game_is_404_to_a_stranger(client_for, stranger, private_league, spades):
    response = post_hand(client_for(stranger), spades, SPADES_HAND, "k" * 300)
    assert response.status_code == 404


@pytest.mark.parametrize("game_id", [0, 999999, 2**63])
def test_no_such_game(as_owner, game_id):
    response = as_owner.post(f"/api/v1/games/{game_id}/hands/", SPADES_HAND, format="json")
    assert response.status_code == 404 and response.json()["code"] == "not_found"

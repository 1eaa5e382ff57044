"""Idempotency-Key on every create and state change of the API, with the semantics hands have: a retry
with the same key and body gets the first answer and changes nothing more; the same key with another
body is a 422; a malformed key is a 400 that changes nothing. Keys are kept per user and per kind of
request."""

from __future__ import annotations

import pytest

from games.models import Game, Hand, HandRevision, League, Match, Player
from tests.api.conftest import SPADES_HAND

# A second Spades hand: NS bid 6 and take 6, EW bid 6 and take 7.
SECOND_HAND = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}


def send(client, method: str, path: str, body=None, key: str | None = "retry-me"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return getattr(client, method)(path, body, format="json", **headers)


@pytest.fixture
def game_body(league, seats):
    return {"game_type": "spades", "league": league.pk, "seats": seats, "options": {"target": 200}}


def test_a_retried_game_start_starts_one_game(as_owner, game_body):
    first = send(as_owner, "post", "/api/v1/games/", game_body)
    again = send(as_owner, "post", "/api/v1/games/", game_body)
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert again["Location"] == first["Location"] == f"/api/v1/games/{first.json()['id']}/"
    assert Game.objects.count() == 1


def test_the_same_key_for_another_game_is_a_422(as_owner, game_body, seats):
    send(as_owner, "post", "/api/v1/games/", game_body)
    swapped = {**game_body, "seats": {**seats, "N": seats["E"], "E": seats["N"]}}
    response = send(as_owner, "post", "/api/v1/games/", swapped)
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_mismatch"
    assert Game.objects.count() == 1


@pytest.mark.parametrize("key", ["", " ", "k" * 201, "ключ", "tab\tkey"])
def test_a_malformed_key_is_a_400_and_starts_nothing(as_owner, game_body, key):
    response = send(as_owner, "post", "/api/v1/games/", game_body, key=key)
    assert response.status_code == 400
    assert "idempotency_key" in response.json()
    assert not Game.objects.exists()


def test_a_retried_match_start_starts_one_match(as_owner, league, seats):
    body = {"game_type": "trumps", "league": league.pk, "seats": seats}
    first, again = (send(as_owner, "post", "/api/v1/matches/", body) for _ in range(2))
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1 and Game.objects.count() == 1


def test_a_retried_player_and_league_are_added_once(as_owner):
    for _ in range(2):
        assert send(as_owner, "post", "/api/v1/players/", {"name": "Ann"}).status_code == 201
        assert send(as_owner, "post", "/api/v1/leagues/", {"name": "Friday Club"}).status_code == 201
    assert Player.objects.filter(name="Ann").count() == 1
    assert League.objects.filter(name="Friday Club").count() == 1


def test_a_retried_abandon_gets_the_first_answer_not_a_conflict(as_owner, spades):
    first = send(as_owner, "post", f"/api/v1/games/{spades.pk}/abandon/")
    again = send(as_owner, "post", f"/api/v1/games/{spades.pk}/abandon/")
    assert first.status_code == again.status_code == 200
    assert again.json()["status"] == "abandoned"
    assert send(as_owner, "post", f"/api/v1/games/{spades.pk}/abandon/", key="another").status_code == 409


def test_a_retried_correction_is_made_once(as_owner, spades):
    send(as_owner, "post", f"/api/v1/games/{spades.pk}/hands/", SPADES_HAND, key="hand-1")
    fix = {**SECOND_HAND, "reason": "wrong hand"}
    first = send(as_owner, "put", f"/api/v1/games/{spades.pk}/hands/1/", fix)
    again = send(as_owner, "put", f"/api/v1/games/{spades.pk}/hands/1/", fix)
    assert first.status_code == again.status_code == 200
    assert again.json()["totals"] == first.json()["totals"]
    assert HandRevision.objects.filter(game=spades).count() == 1


def test_a_retried_undo_takes_back_one_hand(as_owner, spades):
    for number, hand in enumerate((SPADES_HAND, SECOND_HAND), 1):
        send(as_owner, "post", f"/api/v1/games/{spades.pk}/hands/", hand, key=f"hand-{number}")
    first = send(as_owner, "delete", f"/api/v1/games/{spades.pk}/hands/2/", {"reason": "wrong table"})
    again = send(as_owner, "delete", f"/api/v1/games/{spades.pk}/hands/2/", {"reason": "wrong table"})
    assert first.status_code == again.status_code == 200
    assert again.json()["hand_count"] == 1
    assert Hand.objects.filter(game=spades).count() == 1


def test_keys_are_kept_per_kind_of_request(as_owner, game_body):
    assert send(as_owner, "post", "/api/v1/players/", {"name": "Eve"}, key="same").status_code == 201
    assert send(as_owner, "post", "/api/v1/games/", game_body, key="same").status_code == 201
    assert send(as_owner, "post", "/api/v1/leagues/", {"name": "Friday Club"}, key="same").status_code == 201


def test_invitations_and_league_players_take_a_key_too(as_owner, league):
    for _ in range(2):
        invited = send(as_owner, "post", f"/api/v1/leagues/{league.pk}/invitations/", {"role": "member"})
        added = send(as_owner, "post", f"/api/v1/leagues/{league.pk}/players/", {"name": "Zed"})
        assert invited.status_code == added.status_code == 201
        assert invited["Location"] == f"/api/v1/invitations/{invited.json()['token']}/"
        assert added["Location"] == f"/api/v1/players/{added.json()['id']}/"
    assert league.invitations.count() == 1 and Player.objects.filter(name="Zed").count() == 1
    refused = send(as_owner, "post", f"/api/v1/leagues/{league.pk}/players/", {"name": "Zed"}, key="k" * 201)
    assert refused.status_code == 400 and "idempotency_key" in refused.json()

"""Recording, reading, undoing hands, and their history."""

from __future__ import annotations

import pytest

from games.models import Hand
from tests.api.conftest import SHORT_HAND, SPADES_HAND


def post_hand(client, game, body, **headers):
    return client.post(f"/api/v1/games/{game.pk}/hands/", body, format="json", **headers)


def test_record_hand_returns_number_delta_and_game(as_owner, spades):
    response = post_hand(as_owner, spades, {**SPADES_HAND, "expected_number": 1})
    assert response.status_code == 201
    assert response.json() == {
        "number": 1, "dealer": "N", "delta": {"NS": 72, "EW": -50}, "game": spades.pk, "status": "in_progress",
        "totals": {"NS": 72, "EW": -50}, "bags": {"NS": 2, "EW": 0}, "winner": None, "next_dealer": "E",
    }
    assert Hand.objects.get(game=spades).record == SPADES_HAND


def test_rules_error_is_a_field_error(as_owner, spades):
    response = post_hand(as_owner, spades, SHORT_HAND)
    assert response.status_code == 400
    assert response.json() == {
        "detail": "hand 1: tricks add up to 12; they must add up to 13", "code": "invalid_hand", "hand": 1,
        "tricks": ["tricks add up to 12; they must add up to 13"],
    }


@pytest.mark.parametrize(("body", "field", "message"), [
    ({**SPADES_HAND, "dealer": "E"}, "dealer", "it is N's deal, not E's"),
    ({**SPADES_HAND, "bids": {**SPADES_HAND["bids"], "E": True}}, "bids",
     'bids.E must be a whole number from 0 to 13, "nil" or "blind_nil", not true'),
    ({**SPADES_HAND, "tricks": {**SPADES_HAND["tricks"], "W": "4"}}, "tricks",
     'tricks.W must be a whole number from 0 to 13, not "4"'),
    ({**SPADES_HAND, "tricks": {**SPADES_HAND["tricks"], "W": None}}, "tricks",
     "tricks.W must be a whole number from 0 to 13, not null"),
    ({**SPADES_HAND, "colour": "red"}, "colour", 'unknown field "colour"; a spades hand has: bids, tricks, dealer, note'),
])
def test_a_refused_hand_shows_values_as_json(as_owner, spades, body, field, message):
    response = post_hand(as_owner, spades, body)
    assert response.status_code == 400, response.content
    assert response.json()[field] == [message]
    assert response.json()["detail"] == f"hand 1: {message}"


@pytest.mark.parametrize(("body", "field"), [
    ({**SPADES_HAND, "tricks": {**SPADES_HAND["tricks"], "N": 10**30}}, "tricks"),
    ({**SPADES_HAND, "bids": {**SPADES_HAND["bids"], "E": "lots"}}, "bids"),
    ({**SPADES_HAND, "colour": "red"}, "colour"),
    ({"bids": SPADES_HAND["bids"]}, "tricks"),
    ({**SPADES_HAND, "dealer": "E"}, "dealer"),
    ({**SPADES_HAND, "note": 5}, "note"),
    ({**SPADES_HAND, "expected_number": "one"}, "expected_number"),
    ({**SPADES_HAND, "expected_number": 10**30}, "expected_number"),
    ({**SPADES_HAND, "note": "nul \x00 here"}, "non_field_errors"),
    ([SPADES_HAND], "non_field_errors"),
    ("hand", "non_field_errors"),
])
def test_bad_hands_are_400_and_store_nothing(as_owner, spades, body, field):
    response = post_hand(as_owner, spades, body)
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Hand.objects.filter(game=spades).exists()


def test_a_hand_for_a_finished_game_is_refused(as_owner, spades):
    for _ in range(3):
        result = post_hand(as_owner, spades, SPADES_HAND).json()
    assert result["status"] == "finished"
    assert result["winner"] == "NS"
    response = post_hand(as_owner, spades, SPADES_HAND)
    assert response.status_code == 400
    assert response.json()["non_field_errors"] == ["the game is already over: NS won; no more hands can be added"]
    assert response.json()["hand"] == 4


def test_stale_expected_number_is_409_with_state(as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND)
    response = post_hand(as_owner, spades, {**SPADES_HAND, "expected_number": 1})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "hand_conflict"
    assert body["state"]["hand_count"] == 1
    assert body["state"]["totals"] == {"NS": 72, "EW": -50}
    assert Hand.objects.filter(game=spades).count() == 1


def test_list_and_read_hands(anonymous, as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND)
    assert [h["number"] for h in anonymous.get(f"/api/v1/games/{spades.pk}/hands/").json()] == [1]
    hand = anonymous.get(f"/api/v1/games/{spades.pk}/hands/1/").json()
    assert hand["record"] == SPADES_HAND
    assert anonymous.get(f"/api/v1/games/{spades.pk}/hands/2/").status_code == 404


def test_undo_last_hand(as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND)
    post_hand(as_owner, spades, SPADES_HAND)
    response = as_owner.delete(f"/api/v1/games/{spades.pk}/hands/2/", {"reason": "entered twice"}, format="json")
    assert response.status_code == 200
    assert response.json()["hand_count"] == 1
    assert response.json()["totals"] == {"NS": 72, "EW": -50}
    history = as_owner.get(f"/api/v1/games/{spades.pk}/hands/2/revisions/").json()
    assert [(r["action"], r["reason"], r["changed_by"]) for r in history] == [("undo", "entered twice", "Owner D.")]
    assert history[0]["previous_record"] == SPADES_HAND


def test_undo_of_an_earlier_hand_is_409(as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND)
    post_hand(as_owner, spades, SPADES_HAND)
    response = as_owner.delete(f"/api/v1/games/{spades.pk}/hands/1/")
    assert response.status_code == 409
    assert "only the last hand (hand 2) can be undone" in response.json()["detail"]
    assert Hand.objects.filter(game=spades).count() == 2


def test_undo_without_hands_is_400(as_owner, spades):
    response = as_owner.delete(f"/api/v1/games/{spades.pk}/hands/1/")
    assert response.status_code == 400
    assert response.json()["number"] == ["there is no hand to undo"]


def test_revisions_of_an_untouched_hand_are_empty(anonymous, as_owner, spades):
    post_hand(as_owner, spades, SPADES_HAND)
    assert anonymous.get(f"/api/v1/games/{spades.pk}/hands/1/revisions/").json() == []

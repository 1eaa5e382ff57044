"""Corrections: a corrected hand re-scores every later hand; a refused one changes nothing."""

from __future__ import annotations

from django.forms.models import model_to_dict

from games.models import Game, Hand, HandRevision
from games.services import hand_record
from tests.api.conftest import SPADES_HAND

# EW 122 behind after hand 1, so E may bid blind nil in hand 2.
BLIND_NIL_HAND = {"bids": {"N": 3, "E": "blind_nil", "S": 4, "W": 3}, "tricks": {"N": 4, "E": 0, "S": 5, "W": 4}}
# Hand 1 as corrected: NS 7 made exactly (+70), EW 5 taking 6 (+51): EW is no longer 100 behind.
CLOSE_HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 3, "E": 2, "S": 4, "W": 4}}
# Hand 1 as corrected: NS set (-70), EW 5 taking 7 (+52, 2 bags).
SET_HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 2, "E": 3, "S": 4, "W": 4}}


def rows(game):
    return (
        [model_to_dict(hand) for hand in Hand.objects.filter(game=game).order_by("number")],
        model_to_dict(Game.objects.get(pk=game.pk), exclude=["scorekeepers"]),
        HandRevision.objects.count(),
    )


def test_correction_rescores_later_hands(as_owner, owner, spades):
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    response = as_owner.put(f"/api/v1/games/{spades.pk}/hands/1/", {**SET_HAND, "reason": "misread"}, format="json")
    assert response.status_code == 200, response.content
    game = response.json()
    assert game["hands"][0]["delta"] == {"NS": -70, "EW": 52}
    assert game["hands"][1]["totals"] == {"NS": -70 + 72, "EW": 52 - 50}
    assert game["totals"] == {"NS": 2, "EW": 2}
    assert game["bags"] == {"NS": 2, "EW": 2}
    history = as_owner.get(f"/api/v1/games/{spades.pk}/hands/1/revisions/").json()
    assert history[0]["action"] == "correct"
    assert history[0]["previous_record"] == SPADES_HAND
    assert history[0]["new_record"] == SET_HAND
    assert history[0]["reason"] == "misread"


def test_patch_merges_into_the_stored_record(as_owner, owner, spades):
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    response = as_owner.patch(f"/api/v1/games/{spades.pk}/hands/1/", {"tricks": SET_HAND["tricks"]}, format="json")
    assert response.status_code == 200
    assert response.json()["hands"][0]["record"] == {"bids": SPADES_HAND["bids"], "tricks": SET_HAND["tricks"]}


def test_refused_correction_changes_nothing(as_owner, owner, spades):
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    hand_record(game=spades, record=BLIND_NIL_HAND, by=owner)
    before = rows(spades)
    response = as_owner.put(f"/api/v1/games/{spades.pk}/hands/1/", CLOSE_HAND, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["hand"] == 2
    assert body["code"] == "invalid_hand"
    assert "this correction would make hand 2 invalid" in body["bids"][0]
    assert rows(spades) == before


def test_correction_with_a_bad_record_changes_nothing(as_owner, owner, spades):
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    before = rows(spades)
    response = as_owner.put(f"/api/v1/games/{spades.pk}/hands/1/", {"bids": SPADES_HAND["bids"]}, format="json")
    assert response.status_code == 400
    assert response.json()["tricks"] == ["tricks is missing"]
    assert rows(spades) == before


def test_correcting_a_missing_hand_is_404(as_owner, spades):
    assert as_owner.put(f"/api/v1/games/{spades.pk}/hands/3/", SPADES_HAND, format="json").status_code == 404

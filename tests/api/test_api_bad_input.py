"""Bad input is a 400 (or 415) in the one error shape, never a 500."""

from __future__ import annotations

import pytest

from games.models import Game, Hand

BODIES = [
    "{not json",
    "[" * 50_000,
    '{"name": ' + "9" * 5000 + "}",
    '{"bids": {"N": 1e400}}',
    "NaN",
    "null",
    "[]",
    '"a string"',
    '{"seats": {"N": "\\u0000"}}',
    '{"name": "\\ud800"}',
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/games/{game}/hands/", "/api/v1/players/",
                                  "/api/v1/leagues/", "/api/v1/matches/", "/api/v1/auth/token/",
                                  "/api/v1/games/{game}/hands/1/"])
def test_malformed_bodies_are_400(as_owner, spades, path, body):
    method = as_owner.put if path.endswith("/1/") else as_owner.post
    response = method(path.format(game=spades.pk), body, content_type="application/json")
    assert response.status_code in (400, 404), response.content
    assert {"detail", "code"} <= set(response.json())
    assert not Hand.objects.exists()


def test_unknown_fields_are_refused(as_owner, league, seats):
    response = as_owner.post("/api/v1/games/", {"game_type": "spades", "league": league.pk, "seats": seats,
                                                "colour": "blue"}, format="json")
    assert response.status_code == 400
    assert response.json()["colour"] == ["unknown field"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("body", [
    {"game_type": 5, "seats": {}},
    {"game_type": "spades", "league": "one", "seats": {"N": 1, "E": 2, "S": 3, "W": 4}},
    {"game_type": "spades", "league": 10**30, "seats": {"N": 1, "E": 2, "S": 3, "W": 4}},
    {"game_type": "spades", "seats": {"N": 1, "E": 2, "S": 3, "W": 4}, "options": {"target": "far"}},
    {"game_type": "spades", "seats": {"N": 1, "E": 2, "S": 3, "W": 4}, "options": [1]},
    {"game_type": "spades", "seats": {"N": 1, "E": 2, "S": 3, "W": 4}, "first_dealer": "X"},
    {"game_type": "spades", "seats": {"N": True, "E": 2, "S": 3, "W": 4}},
])
def test_wrong_types_are_400(as_owner, players, body):
    response = as_owner.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert not Game.objects.exists()


def test_huge_option_values_do_not_break_anything(as_owner, players, seats):
    response = as_owner.post("/api/v1/games/", {"game_type": "spades", "seats": seats,
                                                "options": {"bag_limit": 10**30, "target": -10**30}}, format="json")
    assert response.status_code == 400


def test_form_bodies_are_415(as_owner):
    response = as_owner.post("/api/v1/players/", {"name": "Eve"})
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_huge_path_ids_are_404(as_owner, spades):
    big = 10**30
    for path in (f"/api/v1/games/{big}/hands/", f"/api/v1/games/{spades.pk}/hands/{big}/",
                 f"/api/v1/players/{big}/", f"/api/v1/leagues/{big}/members/", f"/api/v1/matches/{big}/"):
        assert as_owner.get(path).status_code == 404, path


@pytest.mark.parametrize("body", ["null", "[]", '"a string"'])
def test_an_undo_whose_body_is_not_an_object_is_400_and_undoes_nothing(as_owner, spades, owner, body):
    from games.services import hand_record

    hand_record(game=spades, record={"bids": {"N": 3, "E": 2, "S": 4, "W": 3},
                                     "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}, by=owner)
    response = as_owner.generic("DELETE", f"/api/v1/games/{spades.pk}/hands/1/", body,
                                content_type="application/json")
    assert response.status_code == 400, response.content
    assert Hand.objects.filter(game=spades).count() == 1

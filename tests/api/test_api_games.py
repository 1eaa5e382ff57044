"""Starting, reading, listing and abandoning games."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.services import hand_record
from tests.api.conftest import SPADES_HAND


def test_start_game_fills_in_every_option(as_owner, league, seats):
    response = as_owner.post("/api/v1/games/", {
        "game_type": "spades", "league": league.pk, "seats": seats, "options": {"target": 300}, "first_dealer": "E",
    }, format="json")
    assert response.status_code == 201
    game = response.json()
    assert game["options"]["target"] == 300
    assert game["options"]["first_dealer"] == "E"
    assert game["options"]["bag_limit"] == 10
    assert game["next_dealer"] == "E"
    assert game["status"] == "in_progress"
    assert game["totals"] == {"NS": 0, "EW": 0}
    assert game["bags"] == {"NS": 0, "EW": 0}
    assert game["seats"]["N"] == {"id": seats["N"], "name": "Ann"}
    assert game["hands"] == []


def test_casual_game_has_no_league(as_owner, seats):
    response = as_owner.post("/api/v1/games/", {"game_type": "smudge", "league": None, "seats": seats}, format="json")
    assert response.status_code == 201
    assert response.json()["league"] is None
    assert response.json()["bags"] is None


def test_unknown_option_is_a_field_error(as_owner, league, seats):
    response = as_owner.post("/api/v1/games/", {"game_type": "spades", "league": league.pk, "seats": seats,
                                                "options": {"targte": 300}}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_options"
    assert 'unknown option "targte"' in body["options"][0]


@pytest.mark.parametrize(("seats_body", "field"), [
    ({"N": 1, "E": 2, "S": 3}, "seats"),
    ({"N": 1, "E": 2, "S": 3, "W": 4, "X": 5}, "seats"),
    ({"N": 1, "E": 1, "S": 3, "W": 4}, "seats"),
    ({"N": 1, "E": 2, "S": 3, "W": 999}, "seats"),
    ({"N": 10**30, "E": 2, "S": 3, "W": 4}, "seats"),
    ({"N": "Ann", "E": 2, "S": 3, "W": 4}, "seats"),
    ([1, 2, 3, 4], "seats"),
])
def test_wrong_seats_are_refused(as_owner, league, players, seats_body, field):
    response = as_owner.post("/api/v1/games/", {"game_type": "spades", "league": league.pk, "seats": seats_body},
                             format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_read_game_with_hands(as_owner, spades, owner):
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    game = as_owner.get(f"/api/v1/games/{spades.pk}/").json()
    assert game["hand_count"] == 1
    assert game["totals"] == {"NS": 72, "EW": -50}
    hand = game["hands"][0]
    assert hand["number"] == 1
    assert hand["dealer"] == "N"
    assert hand["record"] == SPADES_HAND
    assert hand["delta"] == {"NS": 72, "EW": -50}
    assert hand["entered_by"] == "Owner D."  # a display name, never the login name
    assert hand["bags"] == {"NS": 2, "EW": 0}


def test_missing_game_is_404(as_owner):
    assert as_owner.get("/api/v1/games/999/").status_code == 404
    assert as_owner.get(f"/api/v1/games/{10**30}/").status_code == 404


@pytest.fixture
def several_games(start_game, owner, seats, players, league):
    from games.services import game_abandon, game_start, player_create

    spades = start_game("spades")
    smudge = start_game("smudge")
    casual = start_game("trumps", in_league=False)
    # A casual game that its creator shared: anyone may read it. (Another one, unshared, is seen by nobody else.)
    from games.services import game_set_public

    game_set_public(game=casual, public=True, by=owner)
    start_game("spades", in_league=False)
    game_abandon(game=smudge, by=owner)
    eve = player_create(name="Eve", by=owner, league=league)
    other = game_start(game_type="thieving_stink", seats={**seats, "W": eve.pk}, by=owner, league=league)
    from games.models import Game

    Game.objects.filter(pk=casual.pk).update(started_at=timezone.now() - datetime.timedelta(days=10))
    return {"spades": spades.pk, "smudge": smudge.pk, "public_casual": casual.pk, "other": other.pk, "eve": eve.pk}


@pytest.mark.parametrize(("query", "expected"), [
    ("", ["other", "smudge", "spades", "public_casual"]),
    ("?game_type=spades", ["spades"]),
    ("?status=abandoned", ["smudge"]),
    ("?league={league}", ["other", "smudge", "spades"]),
    ("?player={eve}", ["other"]),
    ("?started_before={today}", ["public_casual"]),
    ("?started_after={today}", ["other", "smudge", "spades"]),
    ("?started_on={ten_days_ago}", ["public_casual"]),
])
def test_list_filters(anonymous, several_games, league, query, expected):
    today = timezone.now().date()
    query = query.format(league=league.pk, eve=several_games["eve"], today=today,
                         ten_days_ago=today - datetime.timedelta(days=10))
    response = anonymous.get("/api/v1/games/" + query)
    assert response.status_code == 200
    names = {pk: name for name, pk in several_games.items() if name != "eve"}
    assert sorted(names[game["id"]] for game in response.json()["results"]) == sorted(expected)


@pytest.mark.parametrize("query", ["?player=abc", f"?player={10**30}", "?status=won", "?started_on=yesterday",
                                   "?game_type=poker", "?league=-1"])
def test_bad_filters_are_400(anonymous, query):
    response = anonymous.get("/api/v1/games/" + query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_list_is_paginated(anonymous, several_games):
    first = anonymous.get("/api/v1/games/?page_size=2").json()
    assert first["count"] == 4
    assert len(first["results"]) == 2
    assert first["next"]
    second = anonymous.get("/api/v1/games/?page_size=2&page=2").json()
    assert {g["id"] for g in first["results"]}.isdisjoint(g["id"] for g in second["results"])
    assert anonymous.get("/api/v1/games/?page=99").status_code == 404


def test_abandon_game(as_owner, spades):
    response = as_owner.post(f"/api/v1/games/{spades.pk}/abandon/")
    assert response.status_code == 200
    assert response.json()["status"] == "abandoned"
    again = as_owner.post(f"/api/v1/games/{spades.pk}/abandon/")
    assert again.status_code == 409
    assert again.json()["code"] == "game_closed"
    refused = as_owner.post(f"/api/v1/games/{spades.pk}/hands/", SPADES_HAND, format="json")
    assert refused.status_code == 409

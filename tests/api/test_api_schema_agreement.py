"""Where the schema and the API's behaviour used to disagree: each now does what the schema (and docs/api.md)
says. The full schemathesis run is tests/api/test_api_schemathesis_run.py."""

from __future__ import annotations

import pytest

from games.models import Game, Membership, Player
from tests.api.conftest import SPADES_HAND


@pytest.fixture
def schema(anonymous):
    return anonymous.get("/api/v1/schema/?format=json").json()


def test_undoing_a_hand_is_documented_as_the_200_it_answers(as_owner, spades, schema):
    responses = schema["paths"]["/api/v1/games/{id}/hands/{number}/"]["delete"]["responses"]
    assert "200" in responses and "204" not in responses
    assert responses["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/GameDetailOut")
    as_owner.post(f"/api/v1/games/{spades.pk}/hands/", SPADES_HAND, format="json")
    assert as_owner.delete(f"/api/v1/games/{spades.pk}/hands/1/").status_code == 200


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/v1/players/", {"name": 0}, "name"),
    ("/api/v1/players/", {"name": ["Ann"]}, "name"),
    ("/api/v1/leagues/", {"name": "Club", "slug": 7}, "slug"),
    ("/api/v1/leagues/", {"name": "Club", "is_public": "yes"}, "is_public"),
    ("/api/v1/leagues/", {"name": "Club", "is_public": 1}, "is_public"),
    ("/api/v1/games/", {"game_type": "spades", "seats": {"N": "1", "E": 2, "S": 3, "W": 4}}, "seats"),
    ("/api/v1/games/", {"game_type": "spades", "seats": {"N": 1.0, "E": 2, "S": 3, "W": 4}}, "seats"),
    ("/api/v1/games/", {"game_type": "spades", "seats": {"N": 1, "E": 2, "S": 3, "W": 4}, "options": None},
     "options"),
])
def test_a_value_of_the_wrong_json_type_is_refused(as_owner, players, path, body, field):
    response = as_owner.post(path, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Player.objects.filter(name="0").exists() and not Game.objects.exists()


@pytest.mark.parametrize("name", ["", "   ", "\t\u3000", "\ufeff"])
def test_a_blank_name_is_refused_as_the_schema_says(as_owner, name):
    response = as_owner.post("/api/v1/players/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["name"] == ["This field may not be blank."]


def test_patch_changes_only_what_is_sent(as_owner, owner, players, league, scorekeeper):
    player = players[0]
    assert as_owner.patch(f"/api/v1/players/{player.pk}/", {}, format="json").status_code == 200
    assert as_owner.patch(f"/api/v1/players/{player.pk}/", {"name": "Annie"}, format="json").json()["name"] == "Annie"
    path = f"/api/v1/leagues/{league.pk}/members/scorekeeper/"
    assert as_owner.patch(path, {}, format="json").json()["role"] == "scorekeeper"
    assert as_owner.patch(path, {"role": "member"}, format="json").json()["role"] == "member"
    assert Membership.objects.get(user=scorekeeper).role == "member"
    # PUT still replaces, so it still needs every field.
    assert as_owner.put(f"/api/v1/players/{player.pk}/", {}, format="json").status_code == 400


@pytest.mark.parametrize("query", ["?status=", "?game_type=", "?league=", "?status=lost", "?game_type=poker",
                                   "?page=", "?page=0", "?page=last", "?page_size=0", "?page_size=101",
                                   "?page_size=ten"])
def test_an_empty_or_unknown_filter_is_refused_not_ignored(anonymous, db, query):
    response = anonymous.get("/api/v1/games/" + query)
    assert response.status_code == 400, response.content


def test_a_league_you_cannot_see_is_refused_as_one_that_does_not_exist(client_for, stranger, private_league, seats):
    body = {"game_type": "spades", "seats": seats}
    hidden = client_for(stranger).post("/api/v1/games/", {**body, "league": private_league.pk}, format="json")
    missing = client_for(stranger).post("/api/v1/games/", {**body, "league": private_league.pk + 100},
                                        format="json")
    assert hidden.status_code == missing.status_code == 400
    assert hidden.json()["league"] == [f"there is no league {private_league.pk}"]
    assert missing.json()["league"] == [f"there is no league {private_league.pk + 100}"]
    assert not Game.objects.exists()


def test_creates_say_where_the_new_object_is(as_owner, seats, schema):
    response = as_owner.post("/api/v1/games/", {"game_type": "spades", "seats": seats}, format="json")
    assert response["Location"] == f"/api/v1/games/{response.json()['id']}/"
    hand = as_owner.post(response["Location"] + "hands/", SPADES_HAND, format="json")
    assert hand["Location"] == f"/api/v1/games/{response.json()['id']}/hands/1/"
    links = schema["paths"]["/api/v1/games/"]["post"]["responses"]["201"]["links"]
    assert links["RecordHand"] == {"operationId": "games_hands_create", "parameters": {"id": "$response.body#/id"}}

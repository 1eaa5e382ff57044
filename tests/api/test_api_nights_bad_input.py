"""Bad input to the club-night endpoints: every field's bad values are a 400 naming the field, and change nothing;
a night that does not exist is a 404 at every address; nothing is ever a 500."""

from __future__ import annotations

import pytest

from games.models import Game, Night, NightPlayer, NightRound, NightSubstitution, NightTable, Player
from games.services import night_check_in, night_round_start, night_start, player_create

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


@pytest.fixture
def room(owner, league):
    return {name: player_create(name=name, by=owner, league=league) for name in NAMES}


@pytest.fixture
def playing(owner, league, room):
    """A night of two-hand rounds with the nine checked in and round 1 started (two tables, Ida sitting out)."""
    night = night_start(league=league, by=owner, game_type="spades", hands=2)
    for player in room.values():
        night_check_in(night=night, by=owner, player=player)
    night_round_start(night=night, by=owner)
    return night


@pytest.fixture
def elsewhere(make_user):
    """A player of another league."""
    from games.services import league_create

    other = make_user("other-owner")
    return player_create(name="Zoe", by=other, league=league_create(name="Elsewhere", by=other))


def everything(night) -> tuple:
    """All that a refused request must leave as it was."""
    night.refresh_from_db()
    return (night.updated_at, night.code, night.status, Night.objects.count(), Player.objects.count(),
            list(NightPlayer.objects.order_by("pk").values_list("player_id", "left_at", "pair")),
            list(NightRound.objects.order_by("pk").values_list("number", "sitting_out")),
            list(NightTable.objects.order_by("pk").values_list("number", "game_id")),
            NightSubstitution.objects.count(),
            list(Game.objects.order_by("pk").values_list("status", "north_id", "east_id", "south_id", "west_id")))


NEW_NIGHT = {"game_type": "spades", "hands": 4}
TOO_LONG = "x" * 121

# (field, body): each body is refused, naming the field.
START = [
    ("game_type", {"hands": 4}),
    ("game_type", {**NEW_NIGHT, "game_type": "poker"}),
    ("game_type", {**NEW_NIGHT, "game_type": 5}),
    ("game_type", {**NEW_NIGHT, "game_type": None}),
    ("options", {**NEW_NIGHT, "options": "target 300"}),
    ("options", {**NEW_NIGHT, "options": [300]}),
    ("options", {**NEW_NIGHT, "options": None}),
    ("options", {**NEW_NIGHT, "options": {"last_hand": 4}}),
    ("options", {**NEW_NIGHT, "options": {"target": "high"}}),
    ("options", {**NEW_NIGHT, "options": {"colour": "red"}}),
    ("movement", {**NEW_NIGHT, "movement": "swiss"}),
    ("movement", {**NEW_NIGHT, "movement": 1}),
    ("round_end", {**NEW_NIGHT, "round_end": "never"}),
    ("round_end", {**NEW_NIGHT, "round_end": None}),
    ("hands", {"game_type": "spades"}),
    ("hands", {**NEW_NIGHT, "hands": 0}),
    ("hands", {**NEW_NIGHT, "hands": 51}),
    ("hands", {**NEW_NIGHT, "hands": "4"}),
    ("hands", {**NEW_NIGHT, "hands": 2.5}),
    ("hands", {**NEW_NIGHT, "hands": True}),
    ("minutes", {"game_type": "spades", "round_end": "time"}),
    ("minutes", {"game_type": "spades", "round_end": "time", "minutes": 4}),
    ("minutes", {"game_type": "spades", "round_end": "time", "minutes": 241}),
    ("minutes", {"game_type": "spades", "round_end": "time", "minutes": "20"}),
    ("rounds", {**NEW_NIGHT, "rounds": 0}),
    ("rounds", {**NEW_NIGHT, "rounds": 61}),
    ("rounds", {**NEW_NIGHT, "rounds": "3"}),
    ("rounds", {**NEW_NIGHT, "rounds": None}),
    ("name", {**NEW_NIGHT, "name": ""}),
    ("name", {**NEW_NIGHT, "name": "   "}),
    ("name", {**NEW_NIGHT, "name": TOO_LONG}),
    ("name", {**NEW_NIGHT, "name": 5}),
    ("name", {**NEW_NIGHT, "name": "Thursday\x00night"}),
    ("colour", {**NEW_NIGHT, "colour": "red"}),
]


@pytest.mark.parametrize(("field", "body"), START)
def test_a_night_with_a_bad_field_is_refused_naming_it(as_owner, league, playing, field, body):
    before = everything(playing)
    response = as_owner.post(f"/api/v1/leagues/{league.pk}/nights/", body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json(), response.json()
    assert everything(playing) == before


def ann(room):
    return room["Ann"].pk


# (address, field, body): bodies for the night's writes, each refused naming the field. ``body`` may be a
# function of the room and the player of another league.
WRITES = [
    ("check-in/", "player", {"player": 0}),
    ("check-in/", "player", {"player": -1}),
    ("check-in/", "player", {"player": "1"}),
    ("check-in/", "player", {"player": 2**63}),
    ("check-in/", "player", {"player": 987654}),
    ("check-in/", "player", lambda room, zoe: {"player": zoe.pk}),
    ("check-in/", "player", {}),
    ("check-in/", "name", {"name": ""}),
    ("check-in/", "name", {"name": 7}),
    ("check-in/", "name", {"name": "x" * 81}),
    ("check-in/", "name", lambda room, zoe: {"name": "Jo", "player": ann(room)}),
    ("check-in/", "name", {"name": "ann"}),  # Ann is a player already: a similar name
    ("check-in/", "partner", lambda room, zoe: {"player": zoe.pk + 1000, "partner": "x"}),
    ("check-in/", "partner", {"name": "Jo", "partner": 0}),
    ("check-in/", "allow_similar", {"name": "Jo", "allow_similar": "yes"}),
    ("check-in/", "night_code", {"name": "Jo", "night_code": 5}),
    ("check-in/", "night_code", {"name": "Jo", "night_code": ""}),
    ("check-in/", "night_code", {"name": "Jo", "night_code": "x" * 65}),
    ("check-in/", "colour", {"name": "Jo", "colour": "red"}),
    ("check-out/", "player", {}),
    ("check-out/", "player", {"player": "1"}),
    ("check-out/", "player", {"player": 987654}),
    ("check-out/", "player", lambda room, zoe: {"player": zoe.pk}),
    ("pairs/", "player", lambda room, zoe: {"partner": ann(room)}),
    ("pairs/", "partner", lambda room, zoe: {"player": ann(room)}),
    ("pairs/", "partner", lambda room, zoe: {"player": ann(room), "partner": room["Ben"].pk}),  # not a pairs night
    ("rounds/", "move_on", {"move_on": "yes"}),
    ("rounds/", "move_on", {"move_on": 1}),
    ("rounds/", "colour", {"colour": "red"}),
    ("substitutions/", "leaving", lambda room, zoe: {"arriving": room["Ida"].pk}),
    ("substitutions/", "arriving", lambda room, zoe: {"leaving": ann(room)}),
    ("substitutions/", "arriving", lambda room, zoe: {"leaving": ann(room), "arriving": "9"}),
    ("substitutions/", "arriving", lambda room, zoe: {"leaving": ann(room), "arriving": ann(room)}),
    ("substitutions/", "arriving", lambda room, zoe: {"leaving": ann(room), "arriving": zoe.pk}),
    ("substitutions/", "leaving", lambda room, zoe: {"leaving": 987654, "arriving": room["Ida"].pk}),
    ("tables/move/", "table", {"to": 3}),
    ("tables/move/", "table", {"table": 0, "to": 3}),
    ("tables/move/", "table", {"table": 100, "to": 3}),
    ("tables/move/", "table", {"table": "1", "to": 3}),
    ("tables/move/", "table", {"table": 9, "to": 3}),
    ("tables/move/", "to", {"table": 1}),
    ("tables/move/", "to", {"table": 1, "to": 0}),
    ("tables/move/", "to", {"table": 1, "to": 100}),
    ("tables/move/", "to", {"table": 1, "to": 1}),
    ("tables/end/", "table", {}),
    ("tables/end/", "table", {"table": "1"}),
    ("tables/end/", "table", {"table": 9}),
    ("tables/end/", "round", {"table": 1, "round": 0}),
    ("tables/end/", "round", {"table": 1, "round": "1"}),
    ("tables/end/", "round", {"table": 1, "round": 5}),
    ("tables/end/", "abandon", {"table": 1, "abandon": "yes"}),
    ("end/", "end_tables", {"end_tables": "yes"}),
    ("end/", "end_tables", {"end_tables": None}),
]


@pytest.mark.parametrize(("action", "field", "body"), WRITES)
def test_a_bad_field_is_refused_naming_it_and_changes_nothing(as_owner, playing, room, elsewhere, action, field,
                                                              body):
    sent = body(room, elsewhere) if callable(body) else body
    before = everything(playing)
    response = as_owner.post(f"/api/v1/nights/{playing.pk}/{action}", sent, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json(), response.json()
    assert response["Content-Type"] == "application/problem+json"
    assert everything(playing) == before


ADDRESSES = ["check-in/", "check-out/", "pairs/", "rounds/", "substitutions/", "tables/move/", "tables/end/", "end/",
             "code/"]


@pytest.mark.parametrize("action", [action for action in ADDRESSES if action != "code/"])  # code/ reads no body
@pytest.mark.parametrize("problem", [
    {"body": "{not json", "content_type": "application/json", "status": 400},
    {"body": "player=1", "content_type": "application/x-www-form-urlencoded", "status": 415},
    {"body": "[1, 2]", "content_type": "application/json", "status": 400},
    {"body": "null", "content_type": "application/json", "status": 400},
])
def test_a_body_that_is_not_a_json_object_is_refused(as_owner, playing, action, problem):
    before = everything(playing)
    response = as_owner.generic("POST", f"/api/v1/nights/{playing.pk}/{action}", problem["body"],
                                content_type=problem["content_type"])
    assert response.status_code == problem["status"], response.json()
    assert everything(playing) == before


@pytest.mark.parametrize("action", ADDRESSES)
def test_a_malformed_idempotency_key_is_refused(as_owner, playing, action):
    before = everything(playing)
    response = as_owner.post(f"/api/v1/nights/{playing.pk}/{action}", {}, format="json",
                             HTTP_IDEMPOTENCY_KEY=" spaced ")
    assert response.status_code == 400, response.json()
    assert "idempotency_key" in response.json()
    assert everything(playing) == before


@pytest.mark.parametrize("pk", ["987654", "0", str(2**63), str(2**70)])
@pytest.mark.parametrize("action", ["", "results.csv", *ADDRESSES])
def test_a_night_that_does_not_exist_is_a_404_at_every_address(as_owner, playing, pk, action):
    before = everything(playing)
    address = f"/api/v1/nights/{pk}/{action}"
    response = as_owner.get(address) if action in ("", "results.csv") else as_owner.post(address, {}, format="json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"
    assert everything(playing) == before


@pytest.mark.parametrize("pk", ["987654", "0", str(2**70)])
def test_the_nights_of_a_league_that_does_not_exist_are_a_404(as_owner, pk):
    assert as_owner.get(f"/api/v1/leagues/{pk}/nights/").status_code == 404
    assert as_owner.post(f"/api/v1/leagues/{pk}/nights/", NEW_NIGHT, format="json").status_code == 404
    assert not Night.objects.exists()


def test_a_night_that_is_over_refuses_what_would_change_it_with_a_conflict(as_owner, playing, room):
    from games.services import night_end

    night_end(night=playing, by=playing.created_by)
    before = everything(playing)
    for action, body in (("check-in/", {"name": "Jo"}), ("rounds/", {}), ("end/", {}),
                         ("check-out/", {"player": room["Ida"].pk})):
        response = as_owner.post(f"/api/v1/nights/{playing.pk}/{action}", body, format="json")
        assert (response.status_code, response.json()["night"]) == (409, ["the night is over: it was ended"])
    assert everything(playing) == before


def test_the_results_are_csv_only(as_owner, playing):
    response = as_owner.get(f"/api/v1/nights/{playing.pk}/results.csv?format=json")
    assert response.status_code == 400
    assert "format" in response.json()
    assert as_owner.get(f"/api/v1/nights/{playing.pk}/results.csv", HTTP_ACCEPT="application/json").status_code == 200

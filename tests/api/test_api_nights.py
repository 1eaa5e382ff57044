"""Club nights through the API (docs/api.md, "Club nights"): a night run from start to end, who may do what, the
night's code, retries with an idempotency key, and two phones sending the same request at once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, IdempotencyRecord, Night, NightPlayer, NightRound, NightSubstitution
from games.services import night_check_in, night_round_start, night_start, player_create

# A Spades hand that NS make and EW are set on: NS 60 + 1 bag, EW -70.
NS_HAND = {"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


@pytest.fixture
def room(owner, league):
    """Nine players of the league, by name."""
    return {name: player_create(name=name, by=owner, league=league) for name in NAMES}


@pytest.fixture
def night(owner, league):
    """A night of two-hand rounds of Spades, nobody checked in yet."""
    return night_start(league=league, by=owner, game_type="spades", hands=2, rounds=3, name="Thursday night")


@pytest.fixture
def playing(night, owner, room):
    """The night with the nine checked in and round 1 started: two tables, Ida sitting out."""
    for player in room.values():
        night_check_in(night=night, by=owner, player=player)
    night_round_start(night=night, by=owner)
    return night


def url(night, action: str = "") -> str:
    return f"/api/v1/nights/{night.pk}/{action}"


def post(client, night, action: str, body=None, **headers):
    return client.post(url(night, action), body if body is not None else {}, format="json", **headers)


def table_games(body: dict, round_number: int = -1) -> dict[int, int]:
    return {table["number"]: table["game"] for table in body["rounds_played"][round_number]["tables"]}


def play_out(client, game_id: int) -> None:
    while Game.objects.get(pk=game_id).status == Game.Status.IN_PROGRESS:
        assert client.post(f"/api/v1/games/{game_id}/hands/", NS_HAND, format="json").status_code == 201


# --- a night from start to end -----------------------------------------------------------------------------


def test_an_organiser_runs_a_night_from_start_to_end(as_owner, league, room):
    started = as_owner.post(f"/api/v1/leagues/{league.pk}/nights/",
                            {"game_type": "spades", "hands": 2, "rounds": 2, "name": "Thursday night"}, format="json")
    assert started.status_code == 201, started.json()
    night = Night.objects.get()
    assert started["Location"] == f"/api/v1/nights/{night.pk}/"
    assert (started.json()["status"], started.json()["code"], started.json()["players"]) == (
        "checking_in", night.code, [])
    for name in NAMES[:8]:
        assert post(as_owner, night, "check-in/", {"player": room[name].pk}).status_code == 200
    newcomer = post(as_owner, night, "check-in/", {"name": "Jo"}).json()
    assert [player["name"] for player in newcomer["players"]] == [*NAMES[:8], "Jo"]

    first = post(as_owner, night, "rounds/")
    assert first.status_code == 200, first.json()
    round_1 = first.json()["rounds_played"][0]
    assert [[seat["name"] for seat in table["seats"].values()] for table in round_1["tables"]] == [
        ["Ann", "Ben", "Cid", "Dee"], ["Eve", "Fay", "Gus", "Hal"]]
    assert [player["name"] for player in round_1["sitting_out"]] == ["Jo"]
    assert {table["progress"] for table in round_1["tables"]} == {"hand 1 of 2"}

    # The tables' games are ordinary games: their hands are recorded at games/{id}/hands/.
    games = table_games(first.json())
    play_out(as_owner, games[1])
    as_owner.post(f"/api/v1/games/{games[2]}/hands/", NS_HAND, format="json")
    waiting = post(as_owner, night, "rounds/")
    assert waiting.status_code == 409
    assert waiting.json()["move_on"] == [
        "round 1 is still being played at table 2 (hand 2): wait for it to finish, end its game, or move on and "
        "leave it to finish"]
    ended = post(as_owner, night, "tables/end/", {"table": 2, "round": 1}).json()
    assert [table["status"] for table in ended["rounds_played"][0]["tables"]] == ["finished", "finished"]

    second = post(as_owner, night, "rounds/").json()
    assert len(second["rounds_played"]) == 2 and second["status"] == "playing"
    finished = post(as_owner, night, "end/", {"end_tables": True}).json()
    assert (finished["status"], finished["next_step"]) == ("finished", "The night is over.")
    # Ann and Cid won table 1 (both hands: 122) and Eve and Gus table 2 (one hand, the side ahead: 61); round 2's
    # tables, ended before a hand, were abandoned and count for nothing.
    lines = {player["name"]: line for line in finished["standings"] for player in line["players"]}
    assert [(name, lines[name]["won"], lines[name]["points"], lines[name]["place"]) for name in ("Ann", "Eve")] == [
        ("Ann", 1, 122, 1), ("Eve", 1, 61, 3)]
    assert {line["rounds"][1]["result"] for line in finished["standings"]} <= {"abandoned", "sat_out"}


def test_the_results_csv_has_a_line_per_player_in_the_order_of_the_standings(as_owner, anonymous, playing):
    games = table_games(as_owner.get(url(playing)).json())
    play_out(as_owner, games[1])
    response = anonymous.get(url(playing, "results.csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="{playing.league.slug}-thursday-night-{playing.pk}-results.csv"')
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Place,Player,Played,Won,Drawn,Lost,Points,Sat out,Round 1,Round 1 table,Round 1 points"
    assert lines[1:] == [
        "1,Ann,1,1,0,0,122,0,won,1,122", "1,Cid,1,1,0,0,122,0,won,1,122",
        # Table 2 still plays: its players' round counts for nothing yet, as Ida's sitting out.
        "3,Eve,0,0,0,0,0,0,playing,2,0", "3,Fay,0,0,0,0,0,0,playing,2,0", "3,Gus,0,0,0,0,0,0,playing,2,0",
        "3,Hal,0,0,0,0,0,0,playing,2,0", "3,Ida,0,0,0,0,0,1,sat out,,",
        "8,Ben,1,0,0,1,-140,0,lost,1,-140", "8,Dee,1,0,0,1,-140,0,lost,1,-140",
    ]


def test_the_league_links_to_its_nights_and_lists_them_newest_first(anonymous, as_owner, league, night, owner):
    later = night_start(league=league, by=owner, game_type="smudge", round_end="target", name="Friday night")
    body = anonymous.get(f"/api/v1/leagues/{league.pk}/").json()
    assert body["nights_url"] == f"/api/v1/leagues/{league.pk}/nights/"
    listed = anonymous.get(body["nights_url"]).json()
    assert [(entry["id"], entry["name"]) for entry in listed["results"]] == [
        (later.pk, "Friday night"), (night.pk, "Thursday night")]
    assert "code" not in listed["results"][0]


def test_a_substitute_takes_the_seat_and_a_table_moves(as_owner, playing, room):
    body = post(as_owner, playing, "substitutions/", {"leaving": room["Ben"].pk, "arriving": room["Ida"].pk}).json()
    table = body["rounds_played"][0]["tables"][0]
    assert table["seats"]["E"] == {"id": room["Ida"].pk, "name": "Ida"}
    assert table["substitutions"][0]["leaving"]["name"] == "Ben"
    assert body["rounds_played"][0]["sitting_out"] == []
    games = table_games(body)
    moved = post(as_owner, playing, "tables/move/", {"table": 1, "to": 5}).json()
    assert table_games(moved) == {5: games[1], 2: games[2]}


def test_a_substitute_seated_at_a_finished_table_of_the_round_is_refused_with_why(as_owner, playing, room):
    games = table_games(as_owner.get(url(playing)).json())
    play_out(as_owner, games[2])  # Eve, Fay, Gus and Hal are done
    before = NightSubstitution.objects.count()
    refused = post(as_owner, playing, "substitutions/", {"leaving": room["Ann"].pk, "arriving": room["Eve"].pk})
    assert refused.status_code == 409
    assert refused.json()["arriving"] == [
        "Eve played at table 2 in round 1 (its game is finished): a round seats a player once; pick someone who "
        "sat it out or has not played in it"]
    assert NightSubstitution.objects.count() == before
    same_table = post(as_owner, playing, "substitutions/", {"leaving": room["Ann"].pk, "arriving": room["Cid"].pk})
    assert same_table.json()["arriving"] == ["Cid already sits at table 1, in seat S"]


def test_ending_a_table_of_an_earlier_round_ends_that_one_not_the_new_rounds(as_owner, playing):
    first = table_games(as_owner.get(url(playing)).json())
    second = table_games(post(as_owner, playing, "rounds/", {"move_on": True}).json())
    post(as_owner, playing, "tables/end/", {"table": 1, "round": 1})
    assert Game.objects.get(pk=first[1]).status == "abandoned"
    assert Game.objects.get(pk=second[1]).status == "in_progress"
    again = post(as_owner, playing, "tables/end/", {"table": 1, "round": 1})
    assert (again.status_code, again.json()["code"]) == (409, "game_closed")
    assert Game.objects.get(pk=second[1]).status == "in_progress"


def test_an_unchanged_night_is_a_304(as_owner, playing):
    first = as_owner.get(url(playing))
    assert as_owner.get(url(playing), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    games = table_games(first.json())
    as_owner.post(f"/api/v1/games/{games[1]}/hands/", NS_HAND, format="json")
    assert as_owner.get(url(playing), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


# --- who may do what ----------------------------------------------------------------------------------------

# Each write, with a body that would do something on the night of ``playing``.
WRITES = {
    "check-in/": lambda room: {"player": room["Ida"].pk},
    "check-out/": lambda room: {"player": room["Ida"].pk},
    "rounds/": lambda room: {"move_on": True},
    "substitutions/": lambda room: {"leaving": room["Ann"].pk, "arriving": room["Ida"].pk},
    "tables/move/": lambda room: {"table": 1, "to": 3},
    "tables/end/": lambda room: {"table": 1},
    "end/": lambda room: {},
    "code/": lambda room: None,
}


def changes(night) -> tuple:
    night.refresh_from_db()
    return (night.updated_at, night.code, NightPlayer.objects.count(), NightRound.objects.count(),
            list(Game.objects.order_by("pk").values_list("status", flat=True)))


@pytest.mark.parametrize("action", list(WRITES))
@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403), ("stranger", 403)])
def test_only_the_organisers_run_a_night(client_for, member, stranger, playing, room, action, who, status):
    client = client_for({"anonymous": None, "member": member, "stranger": stranger}[who])
    before = changes(playing)
    response = post(client, playing, action, WRITES[action](room))
    assert response.status_code == status, response.json()
    assert changes(playing) == before


@pytest.mark.parametrize("action", list(WRITES))
def test_a_scorekeeper_runs_the_night_as_the_owner_does(client_for, scorekeeper, playing, room, action):
    response = post(client_for(scorekeeper), playing, action, WRITES[action](room))
    if action == "check-in/":  # Ida is here already
        assert response.status_code == 409
    else:
        assert response.status_code == 200, response.json()


@pytest.mark.parametrize("action", [*WRITES, ""])
def test_a_night_of_a_private_league_is_not_found_by_outsiders(client_for, stranger, private_league, playing, room,
                                                               action):
    client = client_for(stranger)
    response = client.get(url(playing)) if action == "" else post(client, playing, action, WRITES[action](room))
    assert response.status_code == 404
    assert response.json()["detail"] == f"there is no club night {playing.pk}"


def test_the_code_is_shown_to_the_organisers_only(client_for, anonymous, owner, scorekeeper, member, night):
    assert client_for(owner).get(url(night)).json()["code"] == night.code
    assert client_for(scorekeeper).get(url(night)).json()["code"] == night.code
    assert client_for(member).get(url(night)).json()["code"] is None
    assert anonymous.get(url(night)).json()["code"] is None
    assert anonymous.get(url(night)).json()["can_run"] is False


def test_a_player_with_the_code_checks_themselves_in_without_an_account(anonymous, night, room):
    response = post(anonymous, night, "check-in/", {"player": room["Ann"].pk, "night_code": night.code})
    assert response.status_code == 200, response.json()
    assert [player["name"] for player in response.json()["players"]] == ["Ann"]
    assert response.json()["code"] is None
    assert NightPlayer.objects.get().checked_in_by is None


def test_a_member_with_the_code_checks_in_but_adds_no_new_player(client_for, member, night, room):
    client = client_for(member)
    assert post(client, night, "check-in/", {"player": room["Ben"].pk, "night_code": night.code}).status_code == 200
    typed = post(client, night, "check-in/", {"name": "Zed", "night_code": night.code})
    assert (typed.status_code, typed.json()["detail"]) == (
        403, "only the organiser adds new players: pick your name from the list")
    assert not night.league.players.filter(name="Zed").exists()


def test_without_the_code_a_player_is_refused(anonymous, client_for, member, night, room):
    assert post(anonymous, night, "check-in/", {"player": room["Ann"].pk}).status_code == 401
    assert post(client_for(member), night, "check-in/", {"player": room["Ann"].pk}).status_code == 403
    assert not NightPlayer.objects.exists()


def test_a_renewed_code_opens_nothing(as_owner, anonymous, night, room):
    old = night.code
    renewed = post(as_owner, night, "code/").json()["code"]
    assert renewed != old
    refused = post(anonymous, night, "check-in/", {"player": room["Ann"].pk, "night_code": old})
    assert (refused.status_code, refused.json()["detail"]) == (
        403, "this night's code has been renewed: scan the new one")
    assert post(anonymous, night, "check-in/", {"player": room["Ann"].pk, "night_code": renewed}).status_code == 200


def test_a_wrong_code_for_a_private_leagues_night_is_not_found(anonymous, private_league, night, room):
    response = post(anonymous, night, "check-in/", {"player": room["Ann"].pk, "night_code": "not-the-code"})
    assert response.status_code == 404
    good = post(anonymous, night, "check-in/", {"player": room["Ann"].pk, "night_code": night.code})
    assert good.status_code == 200
    assert anonymous.get(url(night)).status_code == 404  # the code checks in; it does not open the league


def test_a_member_reads_the_night_but_starts_none(client_for, member, league):
    client = client_for(member)
    refused = client.post(f"/api/v1/leagues/{league.pk}/nights/", {"game_type": "spades", "hands": 4}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_allowed")
    assert not Night.objects.exists()


# --- retries ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "body", "count"), [
    ("check-in/", lambda room: {"player": room["Ida"].pk}, lambda: NightPlayer.objects.count()),
    ("rounds/", lambda room: {"move_on": True}, lambda: NightRound.objects.count()),
    ("substitutions/", lambda room: {"leaving": room["Ann"].pk, "arriving": room["Ida"].pk},
     lambda: NightSubstitution.objects.count()),
])
def test_a_retry_with_the_same_key_gets_the_same_answer_and_does_it_once(as_owner, night, owner, room, action, body,
                                                                         count):
    for name in NAMES[:8]:
        night_check_in(night=night, by=owner, player=room[name])
    if action != "check-in/":
        night_check_in(night=night, by=owner, player=room["Ida"])
        night_round_start(night=night, by=owner)
    before = count()
    first = post(as_owner, night, action, body(room), HTTP_IDEMPOTENCY_KEY="phone-1-tap-7")
    again = post(as_owner, night, action, body(room), HTTP_IDEMPOTENCY_KEY="phone-1-tap-7")
    assert first.status_code == again.status_code == 200, (first.json(), again.json())
    assert first.json() == again.json()
    assert count() == before + 1
    assert IdempotencyRecord.objects.filter(key="phone-1-tap-7").count() == 1


def test_a_table_moved_twice_with_one_key_moves_once(as_owner, playing):
    games = table_games(as_owner.get(url(playing)).json())
    for _ in range(2):
        moved = post(as_owner, playing, "tables/move/", {"table": 1, "to": 2}, HTTP_IDEMPOTENCY_KEY="swap")
        assert table_games(moved.json()) == {2: games[1], 1: games[2]}


def test_starting_a_night_twice_with_one_key_starts_one(as_owner, league):
    body = {"game_type": "spades", "hands": 4}
    first = as_owner.post(f"/api/v1/leagues/{league.pk}/nights/", body, format="json", HTTP_IDEMPOTENCY_KEY="n1")
    again = as_owner.post(f"/api/v1/leagues/{league.pk}/nights/", body, format="json", HTTP_IDEMPOTENCY_KEY="n1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"] and Night.objects.count() == 1
    other = as_owner.post(f"/api/v1/leagues/{league.pk}/nights/", {**body, "hands": 5}, format="json",
                          HTTP_IDEMPOTENCY_KEY="n1")
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_mismatch")


def race(night, owner, action: str, body: dict, racers: int = 4) -> list[int]:
    """``racers`` copies of one request, with one idempotency key, sent at once."""
    barrier = threading.Barrier(racers)
    statuses: list[int] = []
    token = Token.objects.get_or_create(user=owner)[0].key

    def send() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            barrier.wait()
            statuses.append(post(client, night, action, body, HTTP_IDEMPOTENCY_KEY="director-tap").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def started_one_round_on_a_race(owner, league):
    night = night_start(league=league, by=owner, game_type="spades", hands=2)
    for name in NAMES[:8]:
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=league))
    # Each copy but the first, were it to start a round, would be refused for the tables of the first still
    # playing: the same key gets each the first's answer instead.
    statuses = race(night, owner, "rounds/", {})
    assert statuses == [200] * 4
    assert NightRound.objects.filter(night=night).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_request_sent_at_once_with_one_key_does_it_once_on_postgres(postgres, owner, league):
    started_one_round_on_a_race(owner, league)


@pytest.mark.django_db(transaction=True)
def test_the_same_request_sent_at_once_with_one_key_does_it_once_on_sqlite(owner, league):
    if connection.vendor != "sqlite":
        pytest.skip("the PostgreSQL variant covers this database")
    started_one_round_on_a_race(owner, league)

"""Seasons in the API: members read them, owners create, rename, re-date and close them, and the standings and
player endpoints answer for one season (the current one by default) with ``?season=``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Season
from games.models.seasons import today
from games.standings.services import league_standings_update
from tests.standings.conftest import ONE_HAND

pytestmark = pytest.mark.django_db


def seasons_url(league, season=None) -> str:
    return f"/api/v1/leagues/{league.pk}/seasons/" + (f"{season.pk}/" if season else "")


@pytest.fixture
def finished(league, owner, seats):
    """A finished Smudge game (today), and the league's standings computed."""
    from games.services import game_start, hand_record

    game = game_start(game_type="smudge", seats=seats, by=owner, league=league, options={"target": 4})
    hand_record(game=game, record=ONE_HAND["smudge"]["NS"], by=owner)
    league_standings_update(league_id=league.pk)
    return game


@pytest.fixture
def past(league):
    return Season.objects.create(league=league, name="Spring", starts_on=today() - timedelta(days=200),
                                 ends_on=today() - timedelta(days=100))


def test_the_owner_creates_a_season_and_members_read_it(as_owner, client_for, member, league):
    response = as_owner.post(seasons_url(league), {"name": "Autumn 2026", "starts_on": "2026-09-01",
                                                   "ends_on": "2026-11-30"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Autumn 2026" and body["ends_on"] == "2026-11-30" and body["is_closed"]
    assert response["Location"] == f"/api/v1/leagues/{league.pk}/seasons/{body['id']}/"

    listed = client_for(member).get(seasons_url(league)).json()["results"]
    assert [season["name"] for season in listed] == ["Autumn 2026"]


@pytest.mark.parametrize("who, status", [("member", 403), ("scorekeeper", 403), (None, 401)])
def test_only_owners_manage_seasons(client_for, request, league, past, who, status):
    client = client_for(request.getfixturevalue(who) if who else None)
    assert client.post(seasons_url(league), {"name": "Mine"}, format="json").status_code == status
    assert client.patch(seasons_url(league, past), {"name": "Mine"}, format="json").status_code == status
    assert list(Season.objects.values_list("name", flat=True)) == ["Spring"]


def test_a_private_league_s_seasons_are_a_404_to_outsiders(client_for, stranger, private_league, past):
    client = client_for(stranger)
    assert client.get(seasons_url(private_league)).status_code == 404
    assert client.get(seasons_url(private_league, past)).status_code == 404
    assert client.post(seasons_url(private_league), {"name": "Mine"}, format="json").status_code == 404


@pytest.mark.parametrize("body, status, field", [
    ({"name": "Overlap", "starts_on": "2000-01-01"}, 409, "starts_on"),  # open: runs on into spring
    ({"name": "Backwards", "starts_on": "2030-01-02", "ends_on": "2030-01-01"}, 400, "ends_on"),
    ({"name": "spring", "starts_on": "2030-01-01"}, 400, "name"),
    ({"name": "Bad date", "starts_on": "01/09/2030"}, 400, "starts_on"),
    ({"name": "Far", "starts_on": "9999-12-31"}, 400, "starts_on"),
    ({"name": "Number", "starts_on": 20300101}, 400, "starts_on"),
    ({"name": ""}, 400, "name"),
])
def test_bad_seasons_are_refused_with_the_field_and_change_nothing(as_owner, league, past, body, status, field):
    response = as_owner.post(seasons_url(league), body, format="json")
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    assert field in response.json()
    assert Season.objects.count() == 1


def test_closing_and_starting_the_next_season(as_owner, league):
    first = as_owner.post(seasons_url(league), {"name": "First", "starts_on": str(today() - timedelta(days=30))},
                          format="json").json()
    second = as_owner.post(seasons_url(league), {"name": "Second"}, format="json").json()
    assert second["starts_on"] == str(today() + timedelta(days=1)) and second["ends_on"] is None
    closed = as_owner.get(f"{seasons_url(league)}{first['id']}/").json()
    assert closed["ends_on"] == str(today()) and closed["is_current"]

    again = as_owner.patch(f"{seasons_url(league)}{first['id']}/", {"close": True}, format="json")
    assert again.status_code == 409 and "already closed" in again.json()["detail"]


def test_renaming_and_re_dating_a_season(as_owner, league, past):
    response = as_owner.patch(seasons_url(league, past), {"name": "Spring 2026", "ends_on": str(today() - timedelta(
        days=90))}, format="json")
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["ends_on"]) == ("Spring 2026", str(today() - timedelta(days=90)))


def test_a_season_of_another_league_is_a_404_at_its_address(as_owner, owner, league):
    from games.services import league_create

    other = league_create(name="Friday Club", by=owner)
    theirs = Season.objects.create(league=other, name="Theirs", starts_on=today())
    assert as_owner.get(seasons_url(league, theirs)).status_code == 404
    assert as_owner.patch(seasons_url(league, theirs), {"name": "Mine"}, format="json").status_code == 404


def test_the_same_idempotency_key_creates_one_season(as_owner, league):
    for _ in range(2):
        response = as_owner.post(seasons_url(league), {"name": "Once", "starts_on": "2030-01-01"}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="season-1")
        assert response.status_code == 201
    assert Season.objects.count() == 1


# --- standings and players by season -------------------------------------------------------------------


def standings(client, league, query=""):
    return client.get(f"/api/v1/leagues/{league.pk}/standings/{query}")


def test_standings_default_to_the_current_season(anonymous, league, finished, past):
    now = Season.objects.create(league=league, name="Now", starts_on=today())
    league_standings_update(league_id=league.pk)

    current = standings(anonymous, league).json()
    assert current["season"]["id"] == now.pk and current["season"]["is_current"]
    assert current["game_types"][0]["players"][0]["played"] == 1

    spring = standings(anonymous, league, f"?season={past.pk}").json()
    assert spring["season"]["name"] == "Spring" and spring["game_types"] == []

    all_time = standings(anonymous, league, "?season=all").json()
    assert all_time["season"] is None and all_time["game_types"][0]["players"][0]["played"] == 1


def test_without_a_current_season_the_standings_are_all_time(anonymous, league, finished, past):
    body = standings(anonymous, league).json()
    assert body["season"] is None and body["game_types"][0]["players"][0]["played"] == 1


def test_a_season_of_another_league_or_no_season_is_a_404(anonymous, owner, league, finished):
    from games.services import league_create

    theirs = Season.objects.create(league=league_create(name="Friday Club", by=owner), name="Theirs",
                                   starts_on=today())
    for asked in (str(theirs.pk), "99999"):
        response = standings(anonymous, league, f"?season={asked}")
        assert response.status_code == 404, asked
        assert response.json()["detail"] == f"Thursday Club has no season {asked}"


@pytest.mark.parametrize("asked", ["last", "-1", "0", "1.5", "", " 1"])
def test_a_season_that_is_not_one_is_a_400(anonymous, league, finished, asked):
    response = standings(anonymous, league, f"?season={asked}")
    assert response.status_code == 400
    assert "season" in response.json()
    assert anonymous.get(f"/api/v1/players/1/?season={asked}").status_code in (400, 404)


def test_the_standings_etag_changes_with_the_season(anonymous, league, finished, past):
    all_time = standings(anonymous, league, "?season=all")
    spring = standings(anonymous, league, f"?season={past.pk}")
    assert all_time["ETag"] != spring["ETag"]
    default = standings(anonymous, league)["ETag"]
    Season.objects.create(league=league, name="Now", starts_on=today())  # the default is now this season
    assert standings(anonymous, league)["ETag"] != default
    assert standings(anonymous, league, f"?season={past.pk}", ).status_code == 200
    again = anonymous.get(f"/api/v1/leagues/{league.pk}/standings/?season={past.pk}", HTTP_IF_NONE_MATCH=spring["ETag"])
    assert again.status_code == 304


def test_a_season_s_standings_read_in_one_query_more_than_none(anonymous, league, finished,
                                                                 django_assert_max_num_queries):
    season = Season.objects.create(league=league, name="Now", starts_on=today())
    league_standings_update(league_id=league.pk)
    with django_assert_max_num_queries(3):  # the league with its version and season; players; partnerships
        assert standings(anonymous, league, f"?season={season.pk}").status_code == 200
    tag = standings(anonymous, league)["ETag"]
    with django_assert_max_num_queries(1):
        assert anonymous.get(f"/api/v1/leagues/{league.pk}/standings/", HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_player_s_figures_for_one_season(anonymous, league, players, finished, past,
                                           django_assert_max_num_queries):
    now = Season.objects.create(league=league, name="Now", starts_on=today())
    league_standings_update(league_id=league.pk)
    ann = players[0]

    all_time = anonymous.get(f"/api/v1/players/{ann.pk}/").json()
    assert [entry["season"] for entry in all_time["figures"]] == [None]
    with django_assert_max_num_queries(4):
        this_season = anonymous.get(f"/api/v1/players/{ann.pk}/?season={now.pk}").json()
    assert [entry["season"]["id"] for entry in this_season["ratings"]] == [now.pk]
    assert this_season["figures"][0]["hands"] == 1
    current = anonymous.get(f"/api/v1/players/{ann.pk}/ratings/?season=current").json()
    assert [entry["season"]["name"] for entry in current] == ["Now"]
    assert anonymous.get(f"/api/v1/players/{ann.pk}/?season={past.pk}").json()["figures"] == []
    assert anonymous.get(f"/api/v1/players/{ann.pk}/?season=12345").status_code == 404
    assert anonymous.get(f"/api/v1/players/{ann.pk}/?season=soon").status_code == 400
    assert anonymous.get(f"/api/v1/players/{ann.pk}/?season=").status_code == 400


def test_a_private_league_s_season_is_not_a_player_s_season_to_outsiders(client_for, stranger, league, players,
                                                                         finished):
    season = Season.objects.create(league=league, name="Now", starts_on=today())
    league.is_public = False
    league.save()
    response = client_for(stranger).get(f"/api/v1/players/{players[0].pk}/?season={season.pk}")
    assert response.status_code == 404

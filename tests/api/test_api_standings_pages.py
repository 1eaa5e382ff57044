"""The standings a page at a time: every table of the league cut to the same lines, with the same figures."""

from __future__ import annotations

import random

import pytest

from games.services import game_start, hand_record, player_create
from games.standings.services import league_standings_recompute

pytestmark = pytest.mark.django_db

SMUDGE = {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": False}


@pytest.fixture
def crowded(league, owner):
    """Twelve players and fifteen Smudge games (to 4: one hand each) between random tables; standings computed."""
    rng = random.Random(8)
    people = [player_create(name=f"Player {n:02}", by=owner, league=league) for n in range(12)]
    for _ in range(15):
        seats = dict(zip("NESW", (person.pk for person in rng.sample(people, 4)), strict=True))
        game = game_start(game_type="smudge", seats=seats, by=owner, league=league, options={"target": 4})
        hand_record(game=game, record=SMUDGE, by=owner)
    league_standings_recompute(league_id=league.pk)
    return league


def get(client, league, query: str) -> dict:
    response = client.get(f"/api/v1/leagues/{league.pk}/standings/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_pages_cut_every_table_to_the_same_lines(anonymous, crowded):
    whole = get(anonymous, crowded, "?page_size=100")["game_types"][0]
    first = get(anonymous, crowded, "?page_size=5")
    second = get(anonymous, crowded, "?page_size=5&page=2")
    assert first["sizes"] == {"smudge": {"players": 12, "partnerships": len(whole["partnerships"])}}
    assert (first["page"], first["page_size"], first["previous"]) == (1, 5, None)
    assert "page=2" in first["next"] and "page_size=5" in first["next"]
    assert "page=1" in second["previous"]
    players = first["game_types"][0]["players"] + second["game_types"][0]["players"]
    assert players == whole["players"][:10]  # the same figures, in the same order, place and all
    assert [line["place"] for line in players] == list(range(1, 11))


def test_the_last_page_has_no_next_and_past_it_the_tables_are_empty(anonymous, crowded):
    last = get(anonymous, crowded, "?page_size=50")
    partnerships = last["sizes"]["smudge"]["partnerships"]
    assert partnerships < 50 and last["next"] is None
    beyond = get(anonymous, crowded, "?page=3&page_size=50")
    assert beyond["game_types"] == [{"game_type": "smudge", "name": "Smudge", "players": [], "partnerships": []}]
    assert beyond["sizes"]["smudge"]["players"] == 12 and beyond["computed_at"] == last["computed_at"]


def test_the_next_link_follows_the_longest_table(anonymous, crowded):
    body = get(anonymous, crowded, "?page_size=12")
    assert body["sizes"]["smudge"]["players"] == 12
    assert (body["next"] is not None) == (body["sizes"]["smudge"]["partnerships"] > 12)


@pytest.mark.parametrize("query", ["?page=0", "?page=x", "?page_size=0", "?page_size=101"])
def test_bad_pages_are_a_400(anonymous, crowded, query):
    response = anonymous.get(f"/api/v1/leagues/{crowded.pk}/standings/{query}")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_the_standings_read_stays_two_queries_as_the_league_grows(anonymous, crowded,
                                                                  django_assert_max_num_queries):
    with django_assert_max_num_queries(3):  # the league with its version; players; partnerships
        get(anonymous, crowded, "?page_size=3&page=2")


@pytest.mark.parametrize("database", ["any", pytest.param("postgres", marks=pytest.mark.services)])
def test_a_page_that_only_one_table_reaches_reads_that_table_alone(anonymous, crowded, request, database):
    if database == "postgres":
        request.getfixturevalue("postgres")  # the one query's UNION of pages, cut down to one table
    whole = get(anonymous, crowded, "?page_size=100")["game_types"][0]
    second = get(anonymous, crowded, "?page=2&page_size=12")["game_types"][0]
    assert second["players"] == [] and second["partnerships"] == whole["partnerships"][12:24]

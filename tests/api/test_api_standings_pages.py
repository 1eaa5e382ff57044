"""The standings a page at a time: every table of the league cut to the same lines, with the same figures."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.renderers import JSONRenderer

from api.serializers.standings import LeagueStandingsOut
from games.models import Player
from games.services import game_start, hand_record, league_create, player_create
from games.standings.selectors import league_standings
from games.standings.services import league_standings_recompute

pytestmark = pytest.mark.django_db

SMUDGE = {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": False}
TRUMPS = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7}
# The page is read from one statement on PostgreSQL (kept and prepared) and picked line by line elsewhere.
ON_EITHER_DATABASE = ["any", pytest.param("postgres", marks=pytest.mark.services)]


def play_at_random_tables(league, owner, people, *, games: int, game_type: str, target: int, record, seed: int):
    """``games`` one-hand games of ``game_type`` between random tables of ``people``; standings computed after."""
    rng = random.Random(seed)
    for _ in range(games):
        seats = dict(zip("NESW", (person.pk for person in rng.sample(people, 4)), strict=True))
        game = game_start(game_type=game_type, seats=seats, by=owner, league=league, options={"target": target})
        hand_record(game=game, record=record, by=owner)
    league_standings_recompute(league_id=league.pk)


@pytest.fixture
def crowded(league, owner):
    """Twelve players and fifteen Smudge games (to 4: one hand each) between random tables; standings computed."""
    people = [player_create(name=f"Player {n:02}", by=owner, league=league) for n in range(12)]
    play_at_random_tables(league, owner, people, games=15, game_type="smudge", target=4, record=SMUDGE, seed=8)
    return league


@pytest.fixture
def mixed(crowded, owner):
    """The crowded league with four Trumps games too: a second game type, whose lines count matches."""
    people = list(Player.objects.filter(leagues=crowded).order_by("pk"))
    play_at_random_tables(crowded, owner, people, games=4, game_type="trumps", target=5, record=TRUMPS, seed=9)
    return crowded


def as_sent(body) -> dict:
    return json.loads(JSONRenderer().render(body))


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


@pytest.mark.parametrize("database", ON_EITHER_DATABASE)
def test_every_page_of_every_table_is_the_whole_table_cut(anonymous, mixed, request, database):
    if database == "postgres":
        request.getfixturevalue("postgres")
    whole = as_sent(league_standings(league=mixed))["game_types"]
    assert [table["game_type"] for table in whole] == ["smudge", "trumps"]
    page = 1
    while True:
        body = get(anonymous, mixed, f"?page_size=7&page={page}")
        assert [table["game_type"] for table in body["game_types"]] == ["smudge", "trumps"]
        for listed, table in zip(body["game_types"], whole, strict=True):
            for name in ("players", "partnerships"):
                lines = [{**line, "place": place} for place, line in enumerate(table[name], start=1)]
                assert listed[name] == lines[(page - 1) * 7:page * 7], (page, table["game_type"], name)
        if body["next"] is None:
            break
        page += 1
    longest = max(len(table[name]) for table in whole for name in ("players", "partnerships"))
    assert page == -(-longest // 7) >= 3  # the longest table (Smudge's partnerships) sets the pages
    assert body["game_types"][1]["players"] == []  # twelve Trumps players at most: none past the second page
    assert all(line["matches"] is not None for line in whole[1]["players"])
    assert all(line["rating"] is not None for table in whole for line in table["players"])


@pytest.mark.parametrize("database", ON_EITHER_DATABASE)
def test_each_league_reads_its_own_lines(anonymous, crowded, owner, request, database):
    if database == "postgres":
        request.getfixturevalue("postgres")
    other = league_create(name="Friday Club", by=owner)
    people = [player_create(name=name, by=owner, league=other) for name in ("Eve", "Fay", "Gus", "Hal")]
    game = game_start(game_type="smudge", seats=dict(zip("NESW", (p.pk for p in people), strict=True)), by=owner,
                      league=other, options={"target": 4})
    hand_record(game=game, record=SMUDGE, by=owner)
    league_standings_recompute(league_id=other.pk)
    first = get(anonymous, crowded, "?page_size=5")["game_types"][0]["players"]
    then = get(anonymous, other, "?page_size=5")["game_types"][0]["players"]
    assert {line["player"]["name"] for line in first} <= {f"Player {n:02}" for n in range(12)}
    assert sorted(line["player"]["name"] for line in then) == ["Eve", "Fay", "Gus", "Hal"]


def test_a_page_is_sent_in_its_documented_shape(anonymous, mixed):
    """The page is sent as the selector built it: passed through the serializer that documents it, it is the same."""
    body = get(anonymous, mixed, "?page_size=7&page=2")
    assert body["next"] is not None and body["previous"] is not None
    assert as_sent(LeagueStandingsOut(body).data) == body
    assert list(as_sent(LeagueStandingsOut(body).data)) == list(body)  # its keys in the documented order too

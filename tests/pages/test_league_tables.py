"""The league page shows the top of each table; the whole of one is a page at a time, places agreeing with rows."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from django.urls import reverse

from games.services import league_create, player_create
from games.views.standings import PAGE_SIZE, TOP

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def crowded(django_db_setup, django_db_blocker):
    """A league of sixty players and ninety finished Smudge games between random tables of them, standings
    computed. Built once for the module, in a transaction rolled back after it (each test runs in a savepoint
    inside it, as Django's ``TestCase.setUpTestData`` does): the tests only read it."""
    from django.contrib.auth import get_user_model

    from games.services import game_start, hand_record
    from games.standings.services import league_standings_recompute

    from .conftest import FINISH_TARGETS, FINISHING_HANDS

    rng = random.Random(3)
    with django_db_blocker.unblock(), transaction.atomic():
        owner = get_user_model().objects.create_user(username="crowd-owner", password=None)
        league = league_create(name="Crowded Club", by=owner)
        people = [player_create(name=f"Player {n:02}", by=owner, league=league) for n in range(60)]
        for _ in range(90):
            table = rng.sample(people, 4)
            game = game_start(game_type="smudge", seats=dict(zip("NESW", [person.pk for person in table], strict=True)),
                              by=owner, league=league, options={"target": FINISH_TARGETS["smudge"]})
            hand_record(game=game, record=FINISHING_HANDS["smudge"], by=owner)
        league_standings_recompute(league_id=league.pk)
        yield league, people
        transaction.set_rollback(True)


@pytest.fixture
def league(crowded, db):
    """In this module, the crowded league."""
    return crowded[0]


@pytest.fixture
def crowd(crowded):
    return crowded[1]


def table_url(league, table: str, query: str = "") -> str:
    return reverse("league-table", args=[league.slug, "smudge", table]) + query


def test_the_league_page_shows_the_top_of_each_table_and_links_to_the_rest(client, league, crowd):
    response = client.get(reverse("league", args=[league.slug]) + "?type=smudge")
    standings = response.context["standings"]
    assert len(standings["players"]) == len(standings["partnerships"]) == TOP
    assert [row["place"] for row in standings["players"]] == list(range(1, TOP + 1))
    page = response.content.decode()
    assert f"All {standings['sizes']['players']} players" in page
    assert f'href="{table_url(league, "players", "?sort=won")}"' in page


def test_a_whole_table_a_page_at_a_time(client, league, crowd):
    first = client.get(table_url(league, "players"))
    second = client.get(table_url(league, "players", "?page=2"))
    lines = first.context["standings"]["players"] + second.context["standings"]["players"]
    assert len(first.context["standings"]["players"]) == PAGE_SIZE
    assert len(lines) == len(crowd) == 60
    assert [row["place"] for row in lines] == list(range(1, 61))
    assert len({row["player"]["id"] for row in lines}) == 60
    wins = [(row["won"], row["win_rate"]) for row in lines]
    assert wins == sorted(wins, reverse=True)
    assert "Page 1 of 2" in first.content.decode() and 'rel="next"' in first.content.decode()


@pytest.mark.parametrize("sort, key", [
    ("won", lambda row: -row["won"]),
    ("played", lambda row: -row["played"]),
    ("rate", lambda row: -row["win_rate"]),
    ("margin", lambda row: -row["average_margin"]),
    ("rating", lambda row: -row["rating"]["ordinal"]),
    ("name", lambda row: row["name"].casefold()),
])
def test_places_follow_the_rows_in_every_order(client, league, crowd, sort, key):
    lines = client.get(table_url(league, "players", f"?sort={sort}")).context["standings"]["players"]
    assert [row["place"] for row in lines] == list(range(1, len(lines) + 1))
    assert [key(row) for row in lines] == sorted(key(row) for row in lines)


def test_partnerships_are_paged_too_and_cannot_be_sorted_by_rating(client, league, crowd):
    response = client.get(table_url(league, "partnerships", "?sort=rating&page=3"))
    assert response.status_code == 200 and response.context["sort"] == "rating"
    lines = response.context["standings"]["partnerships"]
    assert lines and lines[0]["place"] == 2 * PAGE_SIZE + 1
    assert all(len(row["players"]) == 2 for row in lines)


def test_a_page_past_the_end_shows_the_last_one(client, league, crowd):
    response = client.get(table_url(league, "players", "?page=99"))
    assert response.context["page"].number == 2


@pytest.mark.parametrize("path", ["standings/poker/players/", "standings/smudge/ratings/"])
def test_unknown_tables_are_404(client, league, path):
    assert client.get(reverse("league", args=[league.slug]) + path).status_code == 404


def test_a_private_leagues_tables_are_404_to_outsiders(client, signed_in, owner, stranger):
    private = league_create(name="Secret", by=owner, is_public=False)
    url = reverse("league-table", args=[private.slug, "smudge", "players"])
    assert client.get(url).status_code == 404
    assert signed_in(stranger).get(url).status_code == 404
    assert signed_in(owner).get(url).status_code == 200


def test_an_empty_table_says_so(client, owner):
    quiet = league_create(name="Quiet Club", by=owner)
    page = client.get(table_url(quiet, "players")).content.decode()
    assert "No finished games of this type yet." in page

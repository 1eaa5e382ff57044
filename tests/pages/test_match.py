"""The Trumps match page: the three games, each seating, match totals and winners."""

import pytest
from django.urls import reverse

from games.models import Game
from games.services import hand_record, league_create, match_start
from tests.conftest import table_in

pytestmark = pytest.mark.django_db

MADE = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}


def test_match_page_through_three_games(client, owner, seats, league):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for number in (1, 2, 3):
        game = Game.objects.get(match=match, match_game_number=number)
        hand_record(game=game, record=MADE, by=owner)
    response = client.get(reverse("match", args=[match.pk]))
    page = response.content.decode()
    assert response.context["finished"]
    assert "win the match" in page or "wins the match" in page
    rows = response.context["rows"]
    assert [row["seats"][2][2] for row in rows] == ["Cat", "Ben", "Dan"]  # S: as seated, then swapped twice
    assert response.context["totals"][0]["player"].name == "Ann"  # N partners everyone, wins every game


def test_match_in_progress_links_to_the_current_game(client, owner, seats, league):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league)
    response = client.get(reverse("match", args=[match.pk]))
    assert response.context["current"].match_game_number == 1
    assert "to come" in response.content.decode()


def test_table_page_links_to_its_match(owner_client, owner, seats):
    match = match_start(game_type="trumps", seats=seats, by=owner)
    game = match.games.get()
    assert reverse("match", args=[match.pk]) in owner_client.get(reverse("table", args=[game.pk])).content.decode()


def test_private_match_is_404_for_strangers(signed_in, stranger, owner):
    private = league_create(name="Secret", by=owner, is_public=False)
    match = match_start(game_type="trumps", seats=table_in(private, owner), by=owner, league=private)
    assert signed_in(stranger).get(reverse("match", args=[match.pk])).status_code == 404


def test_unknown_match_is_404(client):
    assert client.get(reverse("match", args=[999999])).status_code == 404


@pytest.mark.parametrize("finished_games", [0, 2])
def test_match_page_queries_are_fixed(client, owner, seats, league, finished_games, django_assert_max_num_queries):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for number in range(1, finished_games + 1):
        hand_record(game=Game.objects.get(match=match, match_game_number=number), record=MADE, by=owner)
    with django_assert_max_num_queries(4):
        assert client.get(reverse("match", args=[match.pk])).status_code == 200


def test_a_finished_match_game_offers_the_next_game_and_the_standing(owner_client, owner, seats, league):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    first = match.games.get()
    hand_record(game=first, record=MADE, by=owner)
    second = Game.objects.get(match=match, match_game_number=2)
    response = owner_client.get(reverse("table", args=[first.pk]))
    standing = response.context["match_standing"]
    assert standing["next_game"] == second and not standing["finished"]
    assert [row["total"] for row in standing["totals"]] == sorted((row["total"] for row in standing["totals"]),
                                                               reverse=True)
    page = response.content.decode()
    assert "The match after game 1 of 3" in page
    assert f'href="{reverse("table", args=[second.pk])}">Next game</a>' in page
    assert "Rematch" not in page


def test_the_last_game_of_a_match_names_its_winners_and_offers_a_rematch(owner_client, owner, seats, league):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for number in (1, 2, 3):
        hand_record(game=Game.objects.get(match=match, match_game_number=number), record=MADE, by=owner)
    last = Game.objects.get(match=match, match_game_number=3)
    page = owner_client.get(reverse("table", args=[last.pk])).content.decode()
    assert "Ann wins the match!" in page
    assert ">Next game<" not in page and ">Rematch<" in page


def test_a_game_in_progress_has_no_game_over_card(owner_client, owner, seats):
    match = match_start(game_type="trumps", seats=seats, by=owner)
    response = owner_client.get(reverse("table", args=[match.games.get().pk]))
    assert response.context["match_standing"] is None
    assert 'id="game-over"' not in response.content.decode()

"""Home: my games in progress first, then my leagues and recent results; signing in and out."""

import pytest
from django.urls import reverse

from games.services import game_start, hand_record, league_create
from tests.conftest import table_in

pytestmark = pytest.mark.django_db

MADE = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}


def test_my_games_in_progress_come_first(owner_client, start_game, owner):
    live = start_game("spades")
    done = start_game("trumps", target=5)
    hand_record(game=done, record=MADE, by=owner)
    response = owner_client.get(reverse("home"))
    assert [row["game"] for row in response.context["in_progress"]] == [live]
    assert [row["game"] for row in response.context["results"]] == [done]
    page = response.content.decode()
    assert page.index("Your games in progress") < page.index("Your leagues") < page.index("Recent results")
    assert reverse("table", args=[live.pk]) in page


def test_a_strangers_home_has_no_private_games(signed_in, stranger, owner):
    private = league_create(name="Secret", by=owner, is_public=False)
    game_start(game_type="spades", seats=table_in(private, owner), by=owner, league=private)
    response = signed_in(stranger).get(reverse("home"))
    assert response.context["in_progress"] == [] and "Secret" not in response.content.decode()


def test_anonymous_home_invites_to_sign_in(client, league):
    page = client.get(reverse("home")).content.decode()
    assert "Sign in to keep score" in page and league.name in page


@pytest.mark.parametrize("games", [1, 10])
def test_home_queries_are_fixed(owner_client, start_game, owner, games, django_assert_max_num_queries):
    for _ in range(games):
        start_game("spades")
        hand_record(game=start_game("trumps", target=5), record=MADE, by=owner)
    with django_assert_max_num_queries(7):
        assert owner_client.get(reverse("home")).status_code == 200


def test_sign_in_and_out(client, owner):
    assert "Sign in" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("login"), {"username": "owner", "password": "a-long-table-password"})
    assert response.status_code == 302
    assert "Sign out" in client.get(reverse("home")).content.decode()
    assert client.post(reverse("logout")).status_code == 302
    assert "Sign in" in client.get(reverse("home")).content.decode()


def test_wrong_password_is_an_error(client, owner):
    response = client.post(reverse("login"), {"username": "owner", "password": "nope"})
    assert response.status_code == 200 and "enter a correct username and password" in response.content.decode()

"""The league page: standings per game type (sortable), live and recent games, members, adding members."""

import pytest
from django.urls import reverse

from games.models import Membership
from games.services import game_start, hand_record, league_create

pytestmark = pytest.mark.django_db

WIN_NS = {"declarer": "N", "bid": 7, "trumps": None}
TRUMPS_NS = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}


def finished(start_game, owner, game_type="trumps"):
    game = start_game(game_type, target=5)
    hand_record(game=game, record=TRUMPS_NS, by=owner)
    return game


def test_standings_count_games_won(client, league, start_game, owner):
    finished(start_game, owner)
    finished(start_game, owner)
    start_game("spades")
    response = client.get(reverse("league", args=[league.slug]))
    rows = response.context["standings"]
    assert [(row["name"], row["played"], row["won"]) for row in rows][:2] == [("Ann", 2, 2), ("Cat", 2, 2)]
    page = response.content.decode()
    assert "Being played now" in page and "Spades" in page


def test_standings_sort_and_filter_by_game_type(client, league, start_game, owner):
    finished(start_game, owner)
    by_name = client.get(reverse("league", args=[league.slug]) + "?sort=name").context["standings"]
    assert [row["name"] for row in by_name] == ["Ann", "Ben", "Cat", "Dan"]
    spades = client.get(reverse("league", args=[league.slug]) + "?type=spades").context["standings"]
    assert spades == []
    odd = client.get(reverse("league", args=[league.slug]) + "?type=poker&sort=bogus")
    assert odd.status_code == 200 and odd.context["sort"] == "won"


def test_private_league_is_404_for_non_members(client, signed_in, owner, stranger, make_user):
    private = league_create(name="Secret", by=owner, is_public=False)
    assert client.get(reverse("league", args=[private.slug])).status_code == 404
    assert signed_in(stranger).get(reverse("league", args=[private.slug])).status_code == 404
    assert signed_in(owner).get(reverse("league", args=[private.slug])).status_code == 200


def test_owner_adds_a_scorekeeper(owner_client, league, make_user):
    make_user("newbie")
    page = owner_client.get(reverse("league", args=[league.slug])).content.decode()
    assert "Add a scorekeeper" in page
    response = owner_client.post(reverse("league-member", args=[league.slug]),
                                 {"username": "newbie", "role": "scorekeeper"})
    assert response.status_code == 302
    assert Membership.objects.get(league=league, user__username="newbie").role == "scorekeeper"


def test_owner_removes_a_member(owner_client, league, member):
    owner_client.post(reverse("league-member", args=[league.slug]), {"username": "member", "role": "remove"})
    assert not Membership.objects.filter(league=league, user=member).exists()


def test_unknown_user_is_an_error_beside_the_username(owner_client, league):
    response = owner_client.post(reverse("league-member", args=[league.slug]), {"username": "ghost", "role": "member"})
    assert response.status_code == 400
    assert "There is no user called" in response.context["member_form"].errors["username"][0]


def test_the_last_owner_cannot_step_down(owner_client, league):
    response = owner_client.post(reverse("league-member", args=[league.slug]), {"username": "owner", "role": "member"})
    assert response.status_code == 400
    assert "at least one owner" in response.context["member_form"].errors["role"][0]


def test_non_owners_see_no_member_form_and_cannot_post(signed_in, scorekeeper, league, stranger):
    client = signed_in(scorekeeper)
    assert "Add a scorekeeper" not in client.get(reverse("league", args=[league.slug])).content.decode()
    response = client.post(reverse("league-member", args=[league.slug]), {"username": "stranger", "role": "owner"})
    assert response.status_code == 403
    assert not Membership.objects.filter(league=league, user=stranger).exists()


@pytest.mark.parametrize("games", [1, 8])
def test_league_page_queries_are_fixed(owner_client, league, start_game, owner, games, django_assert_max_num_queries):
    for _ in range(games):
        finished(start_game, owner)
        start_game("spades")
    with django_assert_max_num_queries(9):
        assert owner_client.get(reverse("league", args=[league.slug])).status_code == 200


def test_unknown_league_is_404(client):
    assert client.get(reverse("league", args=["nope"])).status_code == 404


def test_casual_game_owner_can_record(signed_in, stranger, seats):
    game = game_start(game_type="trumps", seats=seats, by=stranger)
    assert "Record hand 1" in signed_in(stranger).get(reverse("table", args=[game.pk])).content.decode()

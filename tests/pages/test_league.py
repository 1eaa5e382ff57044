"""The league page: stored standings per game type (sortable), live and recent games, members, adding members."""

import pytest
from django.urls import reverse

from games.models import Membership
from games.services import game_start, league_create
from games.views.standings import TOP
from tests.pages.roles import Page

pytestmark = pytest.mark.django_db

def league_url(league, query: str = "") -> str:
    return reverse("league", args=[league.slug]) + query


def test_standings_come_from_the_stored_tables(client, league, finish, recompute, start_game):
    finish("trumps")
    finish("trumps")
    start_game("spades")
    recompute()
    response = client.get(league_url(league))
    standings = response.context["standings"]
    assert standings["game_type"] == "trumps" and not standings["updating"]
    assert [(row["name"], row["played"], row["won"], row["rating"]["rank"]) for row in standings["players"]] == [
        ("Ann", 2, 2, 1), ("Cat", 2, 2, 1), ("Ben", 2, 0, 3), ("Dan", 2, 0, 3)]
    assert [row["name"] for row in standings["partnerships"]] == ["Ann & Cat", "Ben & Dan"]
    page = response.content.decode()
    assert Page(page).get("table", "Players") and Page(page).get("table", "Partnerships")
    assert "Matches" in page and Page(page).get("heading", "Being played now", level=2)
    assert f">{standings['players'][0]['skill']}<" in page and "Standings updating" not in page


def test_a_partnership_game_type_shows_skill_and_place_columns(client, league, finish, recompute):
    finish("spades")
    recompute()
    page = client.get(league_url(league, "?type=spades")).content.decode()
    players = Page(page).within(Page(page).get("table", "Players"))
    assert players.get("columnheader", "#").attrs["title"] == "Place in this order"
    assert players.within(players.get("columnheader", "Skill")).get("link", "Skill")
    assert "Matches" not in page
    assert "W1" in page and "L1" in page and "+" in page


def test_standings_sort_by_column(client, league, finish, recompute, players, seats):
    finish("spades")
    # Then Ben & Ann beat Cat & Dan: four partnerships, Ann with two wins.
    finish("spades", seats={"N": players[1].pk, "E": players[2].pk, "S": players[0].pk, "W": players[3].pk})
    recompute()
    by_name = client.get(league_url(league, "?type=spades&sort=name")).context["standings"]
    assert [row["name"] for row in by_name["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert [row["name"] for row in by_name["partnerships"]] == ["Ann & Ben", "Ann & Cat", "Ben & Dan", "Cat & Dan"]
    by_rating = client.get(league_url(league, "?type=spades&sort=rating")).context["standings"]
    skills = [row["rating"]["ordinal"] for row in by_rating["players"]]
    assert skills == sorted(skills, reverse=True)
    # Partnerships have no rating: they keep the table's own order.
    assert by_rating["partnerships"][0]["won"] >= by_rating["partnerships"][-1]["won"]
    page = Page(client.get(league_url(league, "?type=spades&sort=played")).content.decode())
    players = page.within(page.get("table", "Players"))
    sorted_by = [header for header in players.all("columnheader") if header.attrs.get("aria-sort") == "descending"]
    assert [players.within(header).get("link").attrs["href"] for header in sorted_by] == ["?type=spades&sort=played"]


def test_another_game_type_and_odd_parameters(client, league, finish, recompute):
    finish("trumps")
    recompute()
    smudge = client.get(league_url(league, "?type=smudge"))
    assert smudge.context["standings"]["players"] == []
    assert "No finished games of this type yet." in smudge.content.decode()
    odd = client.get(league_url(league, "?type=poker&sort=bogus"))
    assert odd.status_code == 200 and odd.context["sort"] == "won"
    assert odd.context["standings"]["game_type"] == "trumps"  # the first game type with results


def test_standings_not_yet_computed_say_they_are_updating(client, league, finish, recompute):
    finish("trumps")  # the standings task has not run yet (a worker is on it)
    response = client.get(league_url(league))
    assert response.context["standings"]["computed_at"] is None
    page = response.content.decode()
    assert "Standings updating" in page and "No finished games" not in page and 'id="players-table"' not in page
    recompute()
    assert "Standings updating" not in client.get(league_url(league)).content.decode()


def test_stale_standings_are_shown_with_the_updating_note(client, league, finish, recompute):
    finish("trumps")
    recompute()
    finish("trumps")
    response = client.get(league_url(league))
    assert response.context["standings"]["players"][0]["played"] == 1
    assert "Standings updating" in response.content.decode()


def test_a_league_without_games_has_no_standings_yet(client, league):
    page = client.get(league_url(league)).content.decode()
    assert "No finished games of this type yet." in page and "Standings updating" not in page


def test_private_league_is_404_for_non_members(client, signed_in, owner, stranger, make_user):
    private = league_create(name="Secret", by=owner, is_public=False)
    assert client.get(reverse("league", args=[private.slug])).status_code == 404
    assert signed_in(stranger).get(reverse("league", args=[private.slug])).status_code == 404
    assert signed_in(owner).get(reverse("league", args=[private.slug])).status_code == 200


def test_adding_a_scorekeeper_invites_them_and_they_accept(owner_client, signed_in, league, make_user):
    newbie = make_user("newbie")
    page = owner_client.get(reverse("league", args=[league.slug])).content.decode()
    assert "Invite someone who has an account" in page
    response = owner_client.post(reverse("league-member", args=[league.slug]),
                                 {"username": "newbie", "role": "scorekeeper"})
    assert response.status_code == 302
    assert not Membership.objects.filter(league=league, user=newbie).exists()
    client = signed_in(newbie)
    invitation = client.get(reverse("home")).context["invitations"][0]
    assert invitation.league == league and invitation.role == "scorekeeper"
    accepted = client.post(reverse("invitation", args=[invitation.token]), {"action": "accept"})
    assert accepted["Location"] == reverse("league", args=[league.slug])
    assert Membership.objects.get(league=league, user=newbie).role == "scorekeeper"


def test_owner_removes_a_member(owner_client, league, member):
    owner_client.post(reverse("league-member", args=[league.slug]), {"username": "member", "role": "remove"})
    assert not Membership.objects.filter(league=league, user=member).exists()


def test_an_unknown_login_name_is_answered_as_a_known_one(owner_client, league, make_user):
    make_user("newbie")
    said = {}
    for name in ("newbie", "ghost"):
        response = owner_client.post(reverse("league-member", args=[league.slug]),
                                     {"username": name, "role": "member"}, follow=True)
        assert response.redirect_chain == [(reverse("league", args=[league.slug]), 302)]
        said[name] = [str(message) for message in response.context["messages"]]
    assert said["ghost"] == [text.replace("newbie", "ghost") for text in said["newbie"]]
    assert "Newbie D." not in said["newbie"][0]  # the name typed, never the account's display name


def test_the_last_owner_cannot_step_down(owner_client, league):
    response = owner_client.post(reverse("league-member", args=[league.slug]), {"username": "owner", "role": "member"})
    assert response.status_code == 400
    assert "at least one owner" in response.context["member_form"].errors["role"][0]


def test_non_owners_see_no_member_form_and_cannot_post(signed_in, scorekeeper, league, stranger):
    client = signed_in(scorekeeper)
    assert 'id="add-member"' not in client.get(reverse("league", args=[league.slug])).content.decode()
    response = client.post(reverse("league-member", args=[league.slug]), {"username": "stranger", "role": "owner"})
    assert response.status_code == 403
    assert not Membership.objects.filter(league=league, user=stranger).exists()


@pytest.mark.parametrize(("tables", "games"), [(1, 1), (3, 8)])
def test_league_page_queries_are_fixed(owner_client, league, owner, finish, recompute, start_game, tables, games,
                                       django_assert_max_num_queries):
    from games.services import player_create

    people = [player_create(name=f"Player {n}", by=owner, league=league) for n in range(4 * tables)]
    for n in range(games):
        table = people[4 * (n % tables): 4 * (n % tables) + 4]
        finish("trumps", seats=dict(zip("NESW", (p.pk for p in table), strict=True)))
        start_game("spades")
    recompute()
    # Session, user, league, owner's role, standings (table sizes, players, partnerships), live games, recent
    # games, the league's seasons (the one shown is picked among them), its club nights, members.
    with django_assert_max_num_queries(12):
        response = owner_client.get(reverse("league", args=[league.slug]))
    standings = response.context["standings"]
    assert standings["sizes"]["players"] == 4 * tables
    assert len(standings["players"]) == min(4 * tables, TOP)


def test_unknown_league_is_404(client):
    assert client.get(reverse("league", args=["nope"])).status_code == 404


def test_casual_game_owner_can_record(signed_in, stranger, seats):
    game = game_start(game_type="trumps", seats=seats, by=stranger)
    assert "Record hand 1" in signed_in(stranger).get(reverse("table", args=[game.pk])).content.decode()

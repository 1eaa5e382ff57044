"""The season picker on the league page, the whole tables and CSV of one season, and the seasons page where
the owner starts, closes, renames and re-dates seasons (and everyone browses the past ones)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Season
from games.models.seasons import today

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(league):
    return Season.objects.create(league=league, name="Spring", starts_on=today() - timedelta(days=200),
                                 ends_on=today() - timedelta(days=100))


@pytest.fixture
def autumn(league):
    return Season.objects.create(league=league, name="Autumn", starts_on=today() - timedelta(days=7))


def league_page(client, league, query=""):
    return client.get(reverse("league", args=[league.slug]) + query)


def test_the_league_page_shows_the_current_season_with_a_picker(client, league, finish, recompute, spring, autumn):
    finish("smudge")
    recompute()
    response = league_page(client, league)
    page = response.content.decode()
    assert response.context["standings"]["season"] == autumn
    assert "Standings: Autumn" in page
    assert 'aria-label="Season"' in page
    assert f'href="?season={spring.pk}&amp;type=smudge' in page
    assert 'href="?season=all&amp;type=smudge' in page
    assert response.context["standings"]["sizes"]["players"] == 4


def test_a_past_season_and_all_time_are_a_link_away(client, league, finish, recompute, spring, autumn):
    finish("smudge")
    recompute()
    past = league_page(client, league, f"?season={spring.pk}")
    assert past.context["standings"]["season"] == spring
    assert past.context["standings"]["players"] == []
    assert "No finished games of this type yet." in past.content.decode()
    all_time = league_page(client, league, "?season=all")
    assert all_time.context["standings"]["season"] is None
    assert len(all_time.context["standings"]["players"]) == 4
    # The game type tabs, the sort links and the whole tables keep the season.
    assert f"?type=smudge&amp;sort=won&amp;season={spring.pk}" in past.content.decode()
    assert past.context["standings"]["sort_query"] == f"type=spades&season={spring.pk}&"
    assert f"/standings/spades/players/?sort=won&season={spring.pk}" in past.context["standings"]["links"]["players"]


def test_a_league_without_seasons_shows_all_time_and_no_picker(client, league, finish, recompute):
    finish("smudge")
    recompute()
    page = league_page(client, league).content.decode()
    assert "Standings: all time" in page and 'aria-label="Season"' not in page


@pytest.mark.parametrize("asked", ["99999", "last", "-1"])
def test_a_season_the_league_does_not_have_is_a_404(client, league, owner, asked):
    from games.services import league_create

    theirs = Season.objects.create(league=league_create(name="Other", by=owner), name="Theirs", starts_on=today())
    assert league_page(client, league, f"?season={asked}").status_code == 404
    assert league_page(client, league, f"?season={theirs.pk}").status_code == 404


def test_the_whole_table_and_the_csv_of_a_season(client, league, finish, recompute, spring, autumn):
    finish("smudge")
    recompute()
    table = client.get(reverse("league-table", args=[league.slug, "smudge", "players"]) + f"?season={spring.pk}")
    assert table.status_code == 200 and table.context["count"] == 0
    assert "Spring" in table.content.decode()
    csv = client.get(reverse("league-standings-csv", args=[league.slug]) + f"?type=smudge&season={autumn.pk}")
    assert csv["Content-Disposition"].endswith('-standings-autumn-smudge.csv"')
    assert csv.getvalue().decode().count("\n") == 5  # the header and four players


def test_the_league_page_with_seasons_reads_one_query_more(owner_client, league, finish, recompute, spring, autumn,
                                                          django_assert_max_num_queries):
    finish("smudge")
    recompute()
    # As without seasons (10), and the league's seasons (the one shown is picked among them).
    with django_assert_max_num_queries(11):  # as test_league_page_queries_are_fixed
        assert league_page(owner_client, league, f"?season={spring.pk}").status_code == 200


# --- the seasons page -----------------------------------------------------------------------------------


def seasons_page(league) -> str:
    return reverse("league-seasons", args=[league.slug])


def test_everyone_who_sees_the_league_browses_its_seasons(client, league, spring, autumn):
    page = client.get(seasons_page(league)).content.decode()
    assert f"?season={spring.pk}" in page and f"?season={autumn.pk}" in page and "?season=all" in page
    assert "Start the next season" not in page


def test_the_owner_starts_the_next_season(owner_client, league, autumn):
    response = owner_client.post(seasons_page(league), {"action": "next", "name": "Winter"})
    assert response.status_code == 302
    autumn.refresh_from_db()
    assert autumn.ends_on == today()
    assert Season.objects.get(name="Winter").starts_on == today() + timedelta(days=1)


def test_the_owner_closes_renames_and_re_dates_a_season(owner_client, league, autumn):
    assert owner_client.post(seasons_page(league), {"action": "close", "season": autumn.pk}).status_code == 302
    assert owner_client.post(seasons_page(league), {"action": "rename", "season": autumn.pk,
                                                     "name": "Autumn 2026"}).status_code == 302
    new_start = today() - timedelta(days=10)
    assert owner_client.post(seasons_page(league), {"action": "dates", "season": autumn.pk,
                                                     "starts_on": new_start, "ends_on": today()}).status_code == 302
    autumn.refresh_from_db()
    assert (autumn.name, autumn.starts_on, autumn.ends_on) == ("Autumn 2026", new_start, today())


def test_refusals_show_on_the_page_and_change_nothing(owner_client, league, spring, autumn):
    overlap = owner_client.post(seasons_page(league), {"action": "create", "name": "Overlap",
                                                        "starts_on": spring.starts_on})
    assert overlap.status_code == 400 and "overlap" in overlap.content.decode()
    taken = owner_client.post(seasons_page(league), {"action": "rename", "season": autumn.pk, "name": "spring"})
    assert taken.status_code == 400 and "already has a season named" in taken.content.decode()
    closed = owner_client.post(seasons_page(league), {"action": "close", "season": spring.pk})
    assert closed.status_code == 400 and "already closed" in closed.content.decode()
    backwards = owner_client.post(seasons_page(league), {"action": "dates", "season": autumn.pk,
                                                          "starts_on": today(), "ends_on": today() - timedelta(1)})
    assert backwards.status_code == 400 and "cannot end" in backwards.content.decode()
    no_start = owner_client.post(seasons_page(league), {"action": "create", "name": "Undated"})
    assert no_start.status_code == 400 and "give the season&#x27;s first day" in no_start.content.decode()
    assert sorted(Season.objects.values_list("name", flat=True)) == ["Autumn", "Spring"]
    autumn.refresh_from_db()
    assert autumn.ends_on is None  # an undated season did not close the current one


def test_only_owners_manage_seasons_on_the_page(signed_in, member, league, autumn):
    client = signed_in(member)
    assert client.post(seasons_page(league), {"action": "next", "name": "Mine"}).status_code == 403
    assert not Season.objects.filter(name="Mine").exists()


def test_the_seasons_page_is_linked_from_the_league_page(client, league):
    assert seasons_page(league) in league_page(client, league).content.decode()


# --- a player's page ------------------------------------------------------------------------------------


def test_a_player_page_shows_one_season_s_ratings_and_figures(client, league, players, finish, recompute, spring,
                                                              autumn):
    finish("smudge")
    recompute()
    ann = reverse("player", args=[players[0].pk])

    all_time = client.get(ann)
    assert [card["season"] for card in all_time.context["cards"]] == [None]
    assert all_time.context["played"] == 1  # the season's lines are not counted again

    this_season = client.get(f"{ann}?season={autumn.pk}")
    assert [card["season"]["id"] for card in this_season.context["cards"]] == [autumn.pk]
    assert "Ratings and figures: Autumn" in this_season.content.decode()
    assert client.get(f"{ann}?season=current").context["cards"][0]["season"]["name"] == "Autumn"
    assert client.get(f"{ann}?season={spring.pk}").context["cards"] == []
    assert client.get(f"{ann}?season=99999").status_code == 404
    assert client.get(f"{ann}?season=soon").status_code == 404


def test_a_private_league_s_season_is_a_404_on_a_player_page_to_outsiders(signed_in, stranger, league, players,
                                                                         finish, recompute, autumn):
    finish("smudge")
    recompute()
    league.is_public = False
    league.save()
    response = signed_in(stranger).get(reverse("player", args=[players[0].pk]) + f"?season={autumn.pk}")
    assert response.status_code == 404


@pytest.mark.parametrize("asked", ["²", "0", "1" * 30, "1.0"])
def test_odd_season_numbers_are_404s_never_errors(client, owner_client, league, players, autumn, asked):
    assert league_page(client, league, f"?season={asked}").status_code == 404
    assert client.get(reverse("player", args=[players[0].pk]) + f"?season={asked}").status_code == 404
    assert owner_client.post(seasons_page(league), {"action": "close", "season": asked}).status_code == 404

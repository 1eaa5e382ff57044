"""The player page: ratings, results and figures per league and game type (stored ones), and games."""

import re

import pytest
from django.urls import reverse

from games.rules import game_types
from games.services import game_set_public, game_start, league_create
from tests.conftest import join

pytestmark = pytest.mark.django_db


def cards_of(response) -> dict[tuple[str, str], dict]:
    return {(card["league"]["slug"], card["game_type"]): card for card in response.context["cards"]}


def test_ratings_and_figures_for_each_game(client, league, finish, recompute, players):
    for game_type in game_types():
        finish(game_type)
    recompute()
    response = client.get(reverse("player", args=[players[0].pk]))
    cards = cards_of(response)
    assert [key[1] for key in cards] == list(game_types())
    spades = cards[(league.slug, "spades")]
    assert spades["rating"]["rank"] == 1 and spades["rating"]["rated"] == 1
    assert spades["results"]["won"] == 1 and spades["results"]["streak"] == "W1"
    assert dict(spades["figures"])["Nils made"] == "2 of 2 (100%)"
    assert dict(spades["figures"])["Bids made"] == "0 of 0"
    assert dict(cards[(league.slug, "smudge")]["figures"])["Smudges made"] == "1 of 1 (100%)"
    assert dict(cards[(league.slug, "trumps")]["figures"])["Contracts made"] == "1 of 1 (100%)"
    assert dict(cards[(league.slug, "thieving_stink")]["figures"])["Held the trump stack"] == "1 of 1 (100%)"
    assert dict(cards[(league.slug, "thieving_stink")]["figures"])["Average stack held"] == "4 cards"
    assert response.context["won"] == 4 and response.context["played"] == 4
    page = response.content.decode()
    assert page.count('<svg class="sparkline"') == 4
    assert f">{spades['rating']['skill']} <small>skill · rank 1</small>" in page


def test_a_loser_ranks_below(client, finish, recompute, players):
    finish("spades")
    recompute()
    ben = cards_of(client.get(reverse("player", args=[players[1].pk])))
    [card] = ben.values()
    assert card["rating"]["rank"] == 3 and card["rating"]["ordinal"] < 0 and card["rating"]["skill"].startswith("−")
    assert card["results"]["won"] == 0 and card["results"]["streak"] == "L1"


def test_private_leagues_ratings_and_games_show_only_to_members(client, signed_in, owner, make_user, finish,
                                                                recompute, stranger):
    from games.services import league_set_member, player_create, player_link

    private = league_create(name="Secret", by=owner, is_public=False)
    eve = make_user("eve")
    join(private, eve, "member", owner)
    table = [player_create(name=name, by=owner, league=private) for name in ("Eve", "Fay", "Gus", "Hal")]
    player_link(league=private, player=table[0], user=eve, by=owner)
    finish("trumps", league=private, seats={seat: p.pk for seat, p in zip("NESW", table, strict=True)})
    recompute(private)
    url = reverse("player", args=[table[0].pk])
    assert client.get(url).status_code == 404
    assert signed_in(stranger).get(url).status_code == 404
    assert {slug for slug, _ in cards_of(signed_in(owner).get(url))} == {private.slug}
    assert len(signed_in(owner).get(url).context["games"]) == 1
    # Eve leaves the league: she still sees the player she is, but nothing of the private league's.
    league_set_member(league=private, user=eve, role=None, by=eve)
    mine = signed_in(eve).get(url)
    assert mine.status_code == 200 and mine.context["cards"] == [] and mine.context["games"] == []


def test_casual_games_are_listed_but_not_rated(signed_in, owner, seats, players):
    game_start(game_type="spades", seats=seats, by=owner)
    response = signed_in(owner).get(reverse("player", args=[players[0].pk]))
    assert response.context["cards"] == [] and len(response.context["games"]) == 1
    assert "casual games are not rated" in response.content.decode()


def test_a_private_casual_game_is_left_out_for_others(client, owner, seats, players):
    game_start(game_type="spades", seats=seats, by=owner)
    assert client.get(reverse("player", args=[players[0].pk])).context["games"] == []


def test_unknown_player_is_404(client):
    assert client.get(reverse("player", args=[999999])).status_code == 404


@pytest.mark.parametrize(("game_types", "games"), [(1, 1), (4, 3)])
def test_player_page_queries_are_fixed(client, owner, league, finish, recompute, players, game_types, games,
                                       django_assert_max_num_queries):
    for game_type in ("spades", "smudge", "trumps", "thieving_stink")[:game_types]:
        for _ in range(games):
            finish(game_type)
            game_set_public(game=finish(game_type, league=None), public=True, by=owner)
    recompute()
    # Player, whether the visitor may see them, their standings, ratings and history, figures, games (the page's
    # ids, the games with their leagues, then their players), and for partners and opponents: the leagues to choose
    # from, what the records are counted from and the games counted.
    with django_assert_max_num_queries(12):
        response = client.get(reverse("player", args=[players[0].pk]))
    assert len(response.context["cards"]) == game_types
    assert len(response.context["games"]) == 2 * game_types * games


# --- partners and opponents ---------------------------------------------------------------------------


def records_of(response) -> dict[str, dict]:
    return {table["game_type"]: table for table in response.context["records"]["tables"]}


def test_partners_and_opponents_with_the_best_partnership_called_out(client, finish, players):
    ann, ben, cat, dan = players
    for _ in range(3):
        finish("smudge")  # Ann and Cat beat Ben and Dan
    finish("smudge", seats={"N": ann.pk, "E": cat.pk, "S": ben.pk, "W": dan.pk})  # Ann and Ben beat Cat and Dan
    response = client.get(reverse("player", args=[ann.pk]))
    smudge = records_of(response)["smudge"]
    assert [(line["player"]["name"], line["won"], line["lost"]) for line in smudge["partners"]] == [
        ("Cat", 3, 0), ("Ben", 1, 0)]
    assert [line["player"]["name"] for line in smudge["opponents"]] == ["Dan", "Ben", "Cat"]
    page = response.content.decode()
    assert "<h2 id=\"records-title\">Partners and opponents</h2>" in page
    assert f'Best partnership: <a href="{reverse("player", args=[cat.pk])}">Cat</a>, won 3 of 3 (100%)' in page
    assert "Worst partnership" not in page  # Ben: one game together
    # Every partner and opponent is a link to their own page.
    for other in (ben, cat, dan):
        assert f'<a href="{reverse("player", args=[other.pk])}">{other.name}</a>' in page


def test_games_the_visitor_cannot_see_are_not_counted(client, signed_in, owner, stranger, league, players, finish):
    finish("smudge")
    finish("smudge", league=None)  # a casual game the owner has not shared
    url = reverse("player", args=[players[0].pk])
    assert records_of(client.get(url))["smudge"]["played"] == 1
    assert records_of(signed_in(stranger).get(url))["smudge"]["played"] == 1
    assert records_of(signed_in(owner).get(url))["smudge"]["played"] == 2
    assert [entry["slug"] for entry in signed_in(owner).get(url).context["records"]["leagues"]] == [league.slug]


def test_a_private_leagues_games_are_not_counted_for_outsiders(signed_in, owner, make_user, finish):
    from games.services import league_set_member, player_create

    secret = league_create(name="Secret", by=owner, is_public=False)
    former = make_user("former")
    join(secret, former, "scorekeeper", owner)
    table = [player_create(name=name, by=former, league=secret) for name in ("Eve", "Fay", "Gus", "Hal")]
    finish("smudge", league=secret, seats={seat: p.pk for seat, p in zip("NESW", table, strict=True)})
    url = reverse("player", args=[table[0].pk])
    response = signed_in(owner).get(url)
    assert records_of(response)["smudge"]["played"] == 1
    assert response.context["records"]["leagues"] == [{"pk": secret.pk, "slug": "secret", "name": "Secret"}]
    # Whoever added a player sees them after leaving the league, but neither its games nor its name.
    league_set_member(league=secret, user=former, role=None, by=former)
    response = signed_in(former).get(url)
    assert response.status_code == 200 and records_of(response) == {}
    assert response.context["records"]["leagues"] == []
    assert "Secret" not in response.content.decode()


def test_the_filters_choose_a_league_and_a_game(client, owner, league, players, finish):
    finish("smudge")
    finish("trumps")
    game_set_public(game=finish("trumps", league=None), public=True, by=owner)  # a casual game, shared
    url = reverse("player", args=[players[0].pk])
    assert {kind: table["played"] for kind, table in records_of(client.get(url)).items()} == {"smudge": 1, "trumps": 2}
    chosen = client.get(url, {"league": league.slug, "type": "trumps"})
    assert {kind: table["played"] for kind, table in records_of(chosen).items()} == {"trumps": 1}
    page = chosen.content.decode()
    assert f'<option value="{league.slug}" selected>' in page and '<option value="trumps" selected>' in page
    # Anything else is no filter at all, never an error.
    for query in ({"league": "nowhere", "type": "poker"}, {"league": "", "type": ""}, {"type": ["x", "y"]}):
        response = client.get(url, query)
        assert response.status_code == 200
        assert set(records_of(response)) == {"smudge", "trumps"}
        assert records_of(response)["trumps"]["played"] == 2


def test_a_game_type_with_no_games_says_so(client, players, finish):
    finish("smudge")
    response = client.get(reverse("player", args=[players[0].pk]), {"type": "thieving_stink"})
    assert "No finished Thieving Stink games." in response.content.decode()


def test_the_section_fits_a_phone_and_needs_no_script(client, players, finish):
    finish("smudge")
    page = client.get(reverse("player", args=[players[0].pk])).content.decode()
    section = page[page.index('id="records"'):page.index('aria-labelledby="games-title"')]
    # A plain GET form and plain links: nothing for a script to do.
    assert '<form method="get" action="#records"' in section and "<script" not in section
    assert "onclick" not in section and "onchange" not in section
    # On a phone the tables keep name, won, lost and rate; the rest give way (opt, wide) and show under the name.
    assert section.count('class="standings records"') == 2
    assert 'class="phone-only">1 played · points ' in section
    assert '<th scope="col" class="num wide">Played</th>' in section
    for heading in ("Points for", "Points against", "Margin"):
        assert re.search(rf'<th scope="col" class="num opt" title="[^"]*">{heading}</th>', section)


def test_player_page_with_records_queries_are_fixed(client, owner, players, finish, make_user,
                                                    django_assert_max_num_queries):
    from games.services import player_create

    url = reverse("player", args=[players[0].pk])
    finish("smudge")
    with django_assert_max_num_queries(11) as few:
        client.get(url)
    others = [player_create(name=f"Player {n}", by=owner, league=players[0].leagues.first()) for n in range(9)]
    for n in range(3):
        partner, left, right = others[3 * n: 3 * n + 3]
        for _ in range(2):
            finish("smudge", seats={"N": players[0].pk, "E": left.pk, "S": partner.pk, "W": right.pk})
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url)
    assert len(records_of(response)["smudge"]["partners"]) == 4


def test_long_lists_show_eight_and_fold_the_rest_away(client, owner, league, players, finish):
    from games.services import player_create

    others = [player_create(name=f"Player {n:02}", by=owner, league=league) for n in range(10)]
    for left, right in zip(others[::2], others[1::2], strict=True):
        finish("smudge", seats={"N": players[0].pk, "E": left.pk, "S": players[2].pk, "W": right.pk})
    response = client.get(reverse("player", args=[players[0].pk]))
    smudge = records_of(response)["smudge"]
    assert len(smudge["opponents"]) == 8 and len(smudge["opponents_more"]) == 2
    assert [line["player"]["name"] for line in smudge["partners"]] == ["Cat"] and smudge["partners_more"] == []
    page = response.content.decode()
    assert '<details class="more"><summary>2 more opponents</summary>' in page
    assert "more partners" not in page


def test_a_season_shows_the_records_of_its_games_only(client, owner, league, players, finish):
    from datetime import UTC, date, datetime

    from games.models import Game
    from games.services import season_create

    ann = players[0]
    autumn = season_create(league=league, name="Autumn 2026", starts_on=date(2026, 9, 1), ends_on=date(2026, 11, 30),
                           by=owner)
    inside, outside = finish("smudge"), finish("smudge")
    Game.objects.filter(pk=inside.pk).update(finished_at=datetime(2026, 10, 1, 20, tzinfo=UTC))
    Game.objects.filter(pk=outside.pk).update(finished_at=datetime(2026, 12, 5, 20, tzinfo=UTC))
    season_page = client.get(reverse("player", args=[ann.pk]) + f"?season={autumn.pk}")
    all_time = client.get(reverse("player", args=[ann.pk]) + "?season=all")
    assert [table["played"] for table in season_page.context["records"]["tables"]] == [1]
    assert [table["played"] for table in all_time.context["records"]["tables"]] == [2]
    page = season_page.content.decode()
    assert "Games finished in Autumn 2026 (Thursday Club) only." in page
    assert f'<input type="hidden" name="season" value="{autumn.pk}">' in page


def test_a_club_full_of_partners_lists_those_played_with_most_and_counts_the_rest(client, owner, league, players,
                                                                                 finish, monkeypatch):
    from games.services import player_create
    from games.views import players as player_pages

    monkeypatch.setattr(player_pages, "RECORDS_LISTED", 10)
    others = [player_create(name=f"Player {n:02}", by=owner, league=league) for n in range(14)]
    for left, right in zip(others[::2], others[1::2], strict=True):
        finish("smudge", seats={"N": players[0].pk, "E": left.pk, "S": players[2].pk, "W": right.pk})
    finish("smudge", seats={"N": players[0].pk, "E": others[13].pk, "S": players[2].pk, "W": others[0].pk})
    response = client.get(reverse("player", args=[players[0].pk]))
    smudge = records_of(response)["smudge"]
    # Fourteen opponents: the two played most first, ten listed in all, four counted.
    assert [line["player"]["name"] for line in smudge["opponents"][:2]] == ["Player 00", "Player 13"]
    assert len(smudge["opponents"]) + len(smudge["opponents_more"]) == 10 and smudge["opponents_left"] == 4
    assert "And 4 more opponents with fewer games against." in response.content.decode()


def test_the_records_tables_are_drawn_once_until_a_game_they_count_changes(client, players, finish, settings):
    # A cache of this test's own: tables another test drew for the same lines would be these tables.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "records-tables-drawn-once"}}
    url = reverse("player", args=[players[0].pk])
    finish("smudge")
    tables = "players/_records_tables.html"
    assert tables in [template.name for template in client.get(url).templates]
    assert tables not in [template.name for template in client.get(url).templates]  # kept
    finish("smudge")
    again = client.get(url)
    assert tables in [template.name for template in again.templates]
    assert records_of(again)["smudge"]["played"] == 2

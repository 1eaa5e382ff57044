"""The player page: ratings, results and figures per league and game type (stored ones), and games."""

import pytest
from django.urls import reverse

from games.services import game_start, league_create

pytestmark = pytest.mark.django_db


def cards_of(response) -> dict[tuple[str, str], dict]:
    return {(card["league"]["slug"], card["game_type"]): card for card in response.context["cards"]}


def test_ratings_and_figures_for_each_game(client, league, finish, recompute, players):
    for game_type in ("spades", "smudge", "trumps", "thieving_stink"):
        finish(game_type)
    recompute()
    response = client.get(reverse("player", args=[players[0].pk]))
    cards = cards_of(response)
    assert [key[1] for key in cards] == ["spades", "smudge", "trumps", "thieving_stink"]
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


def test_private_leagues_ratings_and_games_show_only_to_members(client, signed_in, owner, member, seats, players,
                                                                finish, recompute, league, stranger):
    private = league_create(name="Secret", by=owner, is_public=False)
    finish("trumps", league=private)
    finish("trumps")
    recompute(private)
    recompute()
    url = reverse("player", args=[players[0].pk])
    assert {slug for slug, _ in cards_of(client.get(url))} == {league.slug}
    assert {slug for slug, _ in cards_of(signed_in(stranger).get(url))} == {league.slug}
    assert len(signed_in(stranger).get(url).context["games"]) == 1
    assert {slug for slug, _ in cards_of(signed_in(owner).get(url))} == {league.slug, private.slug}


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


@pytest.mark.parametrize(("leagues", "games"), [(1, 1), (3, 6)])
def test_player_page_queries_are_fixed(client, owner, finish, recompute, players, leagues, games,
                                       django_assert_max_num_queries):
    for n in range(leagues):
        other = league_create(name=f"League {n}", by=owner)
        for game_type in ("spades", "trumps")[: 1 + n % 2]:
            for _ in range(games):
                finish(game_type, league=other)
        recompute(other)
    # Player, whether the visitor may see them, their standings, ratings and history, figures, games.
    with django_assert_max_num_queries(7):
        response = client.get(reverse("player", args=[players[0].pk]))
    assert len(response.context["cards"]) == sum(1 + n % 2 for n in range(leagues))

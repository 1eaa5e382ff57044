"""The player page: games, win rate and the figures people care about per game."""

import pytest
from django.urls import reverse

from games.services import game_start, hand_record, league_create

pytestmark = pytest.mark.django_db


def test_figures_for_each_game(client, start_game, owner, players):
    spades = start_game("spades")
    hand_record(game=spades, record={"bids": {"N": "nil", "E": 4, "S": 4, "W": 2},
                                     "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}}, by=owner)
    smudge = start_game("smudge", target=3)
    hand_record(game=smudge, record={"bidder": "N", "bid": "smudge", "high": "NS", "low": "NS", "jack": "NS",
                                     "game": "NS", "all_tricks": True}, by=owner)
    trumps = start_game("trumps")
    hand_record(game=trumps, record={"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False,
                                     "redoubled": False, "tricks": 6}, by=owner)
    stink = start_game("thieving_stink")
    hand_record(game=stink, record={"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "N", "size": 7}},
                by=owner)
    response = client.get(reverse("player", args=[players[0].pk]))
    rows = {row["code"]: row for row in response.context["per_type"]}
    assert dict(rows["spades"]["figures"])["Nils made"] == "1 of 1 (100%)"
    assert dict(rows["smudge"]["figures"])["Smudges made"] == "1 of 1 (100%)"
    assert rows["smudge"]["won"] == 1
    assert dict(rows["trumps"]["figures"])["Contracts made"] == "0 of 1 (0%)"
    assert dict(rows["thieving_stink"]["figures"])["Held the trump stack"] == "1 of 1 (100%)"
    assert response.context["won"] == 1 and response.context["played"] == 1


def test_private_games_are_left_out_for_strangers(client, owner, seats, players):
    private = league_create(name="Secret", by=owner, is_public=False)
    game_start(game_type="spades", seats=seats, by=owner, league=private)
    assert client.get(reverse("player", args=[players[0].pk])).context["games"] == []


def test_unknown_player_is_404(client):
    assert client.get(reverse("player", args=[999999])).status_code == 404


@pytest.mark.parametrize("games", [1, 6])
def test_player_page_queries_are_fixed(client, start_game, owner, players, games, django_assert_max_num_queries):
    for _ in range(games):
        game = start_game("trumps", target=5)
        hand_record(game=game, record={"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False,
                                       "redoubled": False, "tricks": 8}, by=owner)
    with django_assert_max_num_queries(4):
        assert client.get(reverse("player", args=[players[0].pk])).status_code == 200

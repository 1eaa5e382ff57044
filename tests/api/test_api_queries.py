"""Reads run a fixed number of queries, however many hands or games there are."""

from __future__ import annotations

import pytest

from games.models import Hand
from games.services import game_start, hand_record

# A hand that never finishes a game to 10**6: NS bid 7 and take 7, EW bid 6 and take 6.
QUIET_HAND = {"bids": {"N": 3, "E": 3, "S": 4, "W": 3}, "tricks": {"N": 3, "E": 3, "S": 4, "W": 3}}
# Token lookup, game (with seats and league), hands (with who entered them); a member's role for a private league.
GAME_QUERIES = 4
# Token lookup, count, page (with seats and league).
LIST_QUERIES = 3


@pytest.mark.parametrize("hands", [1, 25])
def test_game_detail_queries_do_not_grow_with_hands(client_for, member, private_league, start_game, owner, hands,
                                                    django_assert_max_num_queries):
    game = start_game("spades", target=10**6)
    for _ in range(hands):
        hand_record(game=game, record=QUIET_HAND, by=owner)
    client = client_for(member)
    client.get("/api/v1/games/")  # warm up the token for a fair count
    with django_assert_max_num_queries(GAME_QUERIES):
        response = client.get(f"/api/v1/games/{game.pk}/")
    assert len(response.json()["hands"]) == hands == Hand.objects.filter(game=game).count()


@pytest.mark.parametrize("games", [2, 30])
def test_game_list_queries_do_not_grow_with_games(client_for, member, league, seats, owner, games,
                                                  django_assert_max_num_queries):
    for _ in range(games):
        game_start(game_type="spades", seats=seats, by=owner, league=league)
    client = client_for(member)
    with django_assert_max_num_queries(LIST_QUERIES):
        response = client.get("/api/v1/games/?page_size=100")
    assert response.json()["count"] == games


@pytest.mark.parametrize("matches", [1, 5])
def test_match_list_queries_do_not_grow(client_for, owner, seats, matches, django_assert_max_num_queries):
    from games.services import match_start

    for _ in range(matches):
        match_start(seats=seats, by=owner)
    client = client_for(owner)
    with django_assert_max_num_queries(5):
        response = client.get("/api/v1/matches/")
    assert response.json()["count"] == matches

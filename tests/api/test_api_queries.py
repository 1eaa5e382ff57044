"""Reads run a fixed number of queries, however many hands or games there are."""

from __future__ import annotations

import pytest
from django.db import connection

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
        match_start(game_type="trumps", seats=seats, by=owner)
    client = client_for(owner)
    with django_assert_max_num_queries(5):
        response = client.get("/api/v1/matches/")
    assert response.json()["count"] == matches


# --- standings, ratings and figures: read from the stored tables -------------------------------------

# Token lookup, league (a private league: its visibility in the same query), the tables, the ratings.
STANDINGS_QUERIES = 4
# Token lookup, player, ratings, figures (history: one more, on the ratings endpoint).
PLAYER_QUERIES = 4


def fill_league(league, owner, players, games: int) -> None:
    """``games`` finished Spades games between tables of four drawn in turn from ``players``; standings computed."""
    from games.standings.services import league_standings_recompute

    ns = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
    for n in range(games):
        table = [players[(n + k) % len(players)] for k in range(4)]
        game = game_start(game_type="spades", seats=dict(zip("NESW", table, strict=True)), by=owner, league=league,
                          options={"target": 100})
        hand_record(game=game, record=ns, by=owner)
        hand_record(game=game, record=ns, by=owner)
    league_standings_recompute(league_id=league.pk)


@pytest.fixture
def roster(owner, private_league):
    from games.services import player_create

    return [player_create(name=f"Player {n}", by=owner, league=private_league) for n in range(12)]


@pytest.mark.parametrize(("size", "games"), [(4, 1), (12, 15)])
def test_standings_queries_do_not_grow_with_the_league(client_for, member, private_league, owner, roster, size, games,
                                                       django_assert_max_num_queries):
    fill_league(private_league, owner, roster[:size], games)
    client = client_for(member)
    # Django asks SQLite once a connection whether it has JSON (three statements), at the first JSON it builds:
    # in this test alone, that is the standings' rating, so it is asked here, outside the count.
    assert connection.features.supports_json_field
    with django_assert_max_num_queries(STANDINGS_QUERIES):
        response = client.get(f"/api/v1/leagues/{private_league.pk}/standings/")
    assert len(response.json()["game_types"][0]["players"]) == size


@pytest.mark.parametrize(("size", "games"), [(4, 1), (12, 15)])
def test_player_queries_do_not_grow_with_the_league(client_for, member, private_league, owner, roster, size, games,
                                                    django_assert_max_num_queries):
    fill_league(private_league, owner, roster[:size], games)
    client = client_for(member)
    with django_assert_max_num_queries(PLAYER_QUERIES):
        body = client.get(f"/api/v1/players/{roster[0].pk}/").json()
    assert body["ratings"][0]["rated"] == body["figures"][0]["hands"] // 2 > 0
    with django_assert_max_num_queries(PLAYER_QUERIES + 1):
        history = client.get(f"/api/v1/players/{roster[0].pk}/ratings/").json()
    assert len(history[0]["history"]) == history[0]["rated"]

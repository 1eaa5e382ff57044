"""The standings read runs the same few queries whatever the size of the league."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Player
from games.rules import game_types
from games.standings.selectors import league_standings, player_figures, player_ratings

pytestmark = pytest.mark.django_db


def fill_league(league, *, players: int, games: int, seed: int = 1) -> list[Player]:
    """Finished games between random tables of four, inserted in bulk (no hands)."""
    rng = random.Random(seed)
    people = Player.objects.bulk_create(Player(name=f"Player {n}") for n in range(players))
    now = timezone.now()
    rows = []
    for n in range(games):
        north, east, south, west = rng.sample(people, 4)
        game_type = rng.choice(game_types())
        winner = rng.choice(["NS", "EW"])
        rows.append(Game(
            game_type=game_type, league=league, north=north, east=east, south=south, west=west, options={},
            rules_version=1, status=Game.Status.FINISHED, winner=winner,
            totals={"NS": 500 if winner == "NS" else 300, "EW": 500 if winner == "EW" else 300},
            finished_at=now - timedelta(minutes=games - n),
        ))
    Game.objects.bulk_create(rows)
    return people


@pytest.mark.parametrize("players, games", [(4, 3), (60, 400)])
def test_reads_take_a_fixed_number_of_queries(league, recompute, django_assert_max_num_queries, players, games):
    people = fill_league(league, players=players, games=games)
    recompute()

    with django_assert_max_num_queries(2):
        standings = league_standings(league=league)
    assert sum(len(table["players"]) for table in standings["game_types"]) > 0
    with django_assert_max_num_queries(2):
        league_standings(league=league, game_type="spades")
    with django_assert_max_num_queries(2):
        assert player_ratings(player=people[0])
    with django_assert_max_num_queries(1):
        player_figures(player=people[0])

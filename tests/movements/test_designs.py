"""The stored base rounds are what the committed search finds, and every design keeps its promises."""

from __future__ import annotations

import pytest

from games.movements import design_data
from games.movements.designs import design, prime_whist
from games.movements.search import PLAYER_COUNTS, data_module_text, find_base_round, recipe
from tests.movements.conftest import partner_counts, sit_outs_stay_even

SEARCHED = sorted(design_data.BASE_ROUNDS)


def test_every_count_that_is_searched_has_a_stored_base_round():
    assert SEARCHED == [players for players in PLAYER_COUNTS if recipe(players) is not None]


@pytest.mark.parametrize("players", SEARCHED)
def test_a_stored_base_round_is_what_the_search_finds_from_its_seed(players):
    stored = design_data.BASE_ROUNDS[players]
    assert find_base_round(players, first_seed=stored.seed) == stored


def test_the_data_module_is_exactly_what_the_search_writes():
    text = data_module_text(design_data.BASE_ROUNDS)
    assert text == open(design_data.__file__).read()


@pytest.mark.parametrize("players", [5, 13, 17, 29, 37, 41, 53])
def test_a_prime_count_of_the_form_4k_plus_1_has_a_whist_design_from_a_primitive_root(players):
    base = prime_whist(players)
    rounds = [base.shifted(shift) for shift in range(players)]
    assert partner_counts(rounds, range(players)) == {1: players * (players - 1) // 2}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_each_design_seats_everyone_once_a_round_numbered_by_round_one(players):
    found = design(players)
    assert found.rounds[0].players == tuple(range(players))
    for round_ in found.rounds:
        assert sorted(round_.players) == list(range(players))
    assert sit_outs_stay_even(found.rounds, range(players))

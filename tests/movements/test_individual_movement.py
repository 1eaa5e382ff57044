"""Individual movements over a whole night: partners change every round, as evenly as can be."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.movements import MovementError, Table, individual_cycle, individual_movement
from games.movements.designs import design
from tests.movements.conftest import (
    WHIST_COUNTS,
    each_once,
    opponent_counts,
    partner_counts,
    sit_outs_stay_even,
)

EVERY_COUNT = range(4, 42)
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max"]


@pytest.mark.parametrize("players", [8, 9, 12, 13, 16])
def test_over_a_full_cycle_no_two_players_partner_twice(players):
    night = individual_movement(range(players))
    assert night.cycle == (players - 1 if players % 4 == 0 else players)
    assert partner_counts(night.rounds, range(players)) == {1: players * (players - 1) // 2}


@pytest.mark.parametrize("players", WHIST_COUNTS)
def test_whist_counts_get_a_whist_design(players):
    """Everyone partners everyone else exactly once and meets everyone else exactly twice as an opponent."""
    night = individual_movement(range(players))
    pairs = players * (players - 1) // 2
    assert night.description.startswith("whist design")
    assert partner_counts(night.rounds, range(players)) == {1: pairs}
    assert opponent_counts(night.rounds, range(players)) == {2: pairs}


def test_eight_players_over_seven_rounds_as_in_a_whist_tournament():
    night = individual_movement(NAMES[:8])
    assert len(night.rounds) == 7
    for round_ in night.rounds:
        assert len(round_.tables) == 2 and round_.sitting_out == ()
    assert partner_counts(night.rounds, NAMES[:8]) == {1: 28}
    assert opponent_counts(night.rounds, NAMES[:8]) == {2: 28}


def test_nine_players_each_sit_out_once():
    night = individual_movement(NAMES[:9])
    assert sorted(p for round_ in night.rounds for p in round_.sitting_out) == sorted(NAMES[:9])


@pytest.mark.parametrize("players", [n for n in EVERY_COUNT if n % 4 in (2, 3)])
def test_other_counts_never_repeat_a_partner_over_a_cycle(players):
    night = individual_movement(range(players))
    assert max(partner_counts(night.rounds, range(players))) == 1
    # Opponents as even as the count allows: once or twice (seven players: up to twice).
    assert max(opponent_counts(night.rounds, range(players))) == 2
    assert min(opponent_counts(night.rounds, range(players))) == (0 if players == 7 else 1)


@pytest.mark.parametrize("players", EVERY_COUNT)
def test_every_count_has_a_design_of_a_full_cycle(players):
    found = design(players)
    assert found is not None
    assert len(found.rounds) == individual_cycle(players)


def test_round_one_seats_players_in_the_order_given_and_the_last_sit_out():
    first = individual_movement(NAMES[:11]).rounds[0]
    assert first.tables == (Table("Ann", "Bob", "Cid", "Dee"), Table("Eve", "Fay", "Gus", "Hal"))
    assert first.sitting_out == ("Ida", "Jo", "Kit")


def test_the_same_players_give_the_same_night():
    assert individual_movement(NAMES[:10], 12) == individual_movement(list(NAMES[:10]), 12)


@given(
    players=st.integers(min_value=4, max_value=41),
    extra=st.integers(min_value=-3, max_value=4),
)
@settings(max_examples=80, deadline=None)
def test_everyone_plays_or_sits_out_exactly_once_each_round_and_sit_outs_are_spread(players, extra):
    rounds = max(1, individual_cycle(players) + extra)
    night = individual_movement(range(players), rounds)
    assert len(night.rounds) == rounds
    for round_ in night.rounds:
        assert each_once(round_, range(players))
        assert len(round_.tables) == players // 4
    assert sit_outs_stay_even(night.rounds, range(players))


@given(players=st.sampled_from([n for n in EVERY_COUNT if design(n).sit_outs_even]))
@settings(max_examples=30, deadline=None)
def test_a_second_cycle_repeats_the_first_so_every_pair_partners_twice_as_often(players):
    cycle = individual_cycle(players)
    night = individual_movement(range(players), 2 * cycle)
    assert night.rounds[cycle:] == night.rounds[:cycle]
    once = partner_counts(night.rounds[:cycle], range(players))
    assert partner_counts(night.rounds, range(players)) == {2 * count: pairs for count, pairs in once.items()}


def test_past_an_uneven_cycle_the_planner_sits_out_those_who_sat_out_least():
    # 14 players: the cycle of 13 rounds sits two players out once and the rest twice.
    night = individual_movement(range(14), 14)
    once = [p for p in range(14) if sum(p in r.sitting_out for r in night.rounds[:13]) == 1]
    assert sorted(night.rounds[13].sitting_out) == sorted(once)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann", "Bob", "Cid"], "an individual movement needs at least 4 players; 3 are here"),
        (["Ann", "Bob", "Cid", "Ann", "Dee"], "Ann is listed more than once among the players"),
    ],
)
def test_a_night_that_cannot_be_seated_is_refused_with_the_reason(players, message):
    with pytest.raises(MovementError) as refused:
        individual_movement(players)
    assert refused.value.message == message

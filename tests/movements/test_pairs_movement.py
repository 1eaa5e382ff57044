"""Pairs movements: fixed partnerships meet every other pair once, with a bye when the pairs are odd."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.movements import MovementError, next_pairs_round, pairs_cycle, pairs_movement, substitute
from tests.movements.conftest import each_once

PAIRS = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal"), ("Ida", "Jo")]


def numbered_pairs(count):
    return [(f"{n}a", f"{n}b") for n in range(count)]


def meetings(rounds):
    return Counter(frozenset((table.north, table.east)) for round_ in rounds for table in round_.tables)


@given(count=st.integers(min_value=2, max_value=21))
@settings(max_examples=25, deadline=None)
def test_every_pair_meets_every_other_pair_exactly_once_in_a_cycle(count):
    pairs = numbered_pairs(count)
    night = pairs_movement(pairs)
    assert len(night.rounds) == pairs_cycle(count)
    met = meetings(night.rounds)
    assert set(met.values()) == {1} and len(met) == count * (count - 1) // 2
    for round_ in night.rounds:
        assert each_once(round_, [p for pair in pairs for p in pair])
        for table in round_.tables:
            assert (table.north, table.south) in pairs and (table.east, table.west) in pairs


@given(count=st.integers(min_value=1, max_value=10).map(lambda n: 2 * n + 1))
@settings(max_examples=10, deadline=None)
def test_with_odd_pairs_each_pair_has_one_bye_a_cycle_in_turn(count):
    night = pairs_movement(numbered_pairs(count))
    byes = [round_.sitting_out for round_ in night.rounds]
    assert all(len(bye) == 2 for bye in byes)
    assert sorted(byes) == sorted(numbered_pairs(count))


def test_round_one_matches_the_pairs_in_the_order_given_and_the_last_has_the_bye():
    first = pairs_movement(PAIRS).rounds[0]
    assert [(t.north_south, t.east_west) for t in first.tables] == [(PAIRS[0], PAIRS[1]), (PAIRS[2], PAIRS[3])]
    assert first.sitting_out == PAIRS[4]


def test_pairs_sit_north_south_about_half_the_time():
    night = pairs_movement(numbered_pairs(8))
    north_south = Counter(table.north for round_ in night.rounds for table in round_.tables)
    assert set(north_south.values()) <= {3, 4}


def test_unchanged_pairs_follow_the_round_robin():
    night = pairs_movement(PAIRS)
    history = []
    for _ in range(5):
        history.append(next_pairs_round(PAIRS, history))
    assert history == list(night.rounds)


def test_the_round_robin_continues_when_the_pairs_are_listed_in_another_order():
    night = pairs_movement(PAIRS)
    assert next_pairs_round(PAIRS[::-1], night.rounds[:2]) == night.rounds[2]


def test_a_late_pair_plays_at_once_and_meets_pairs_it_has_not_met():
    history = [next_pairs_round(PAIRS[:4])]
    second = next_pairs_round(PAIRS, history)
    assert second.sitting_out != PAIRS[4]
    history.append(second)
    history.append(next_pairs_round(PAIRS, history))
    assert max(meetings(history).values()) == 1


def test_a_pair_keeps_its_meetings_when_a_substitute_joins_it():
    history = [next_pairs_round(PAIRS[:4])]
    history[0] = substitute(history[0], "Bob", "Zoe")
    second = next_pairs_round([("Ann", "Zoe")] + PAIRS[1:4], history)
    assert frozenset(("Ann", "Cid")) not in meetings([second])


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([("Ann", "Bob")], "a pairs movement needs at least 2 pairs; 1 here"),
        ([("Ann", "Bob"), ("Cid", "Ann")], "Ann is listed more than once among the pairs"),
        ([("Ann", "Bob"), ("Cid", "Dee", "Eve")], "a pair is two players, not 3: Cid, Dee, Eve"),
    ],
)
def test_pairs_that_cannot_be_seated_are_refused_with_the_reason(pairs, message):
    with pytest.raises(MovementError) as refused:
        pairs_movement(pairs)
    assert refused.value.message == message

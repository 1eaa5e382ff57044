"""The samplers of plausible hands behind demo games, property tests and benchmarks (``Ruleset.sample_hand``).

A sampled hand is valid under the game's default options whatever the score: no nils, no doubles, no
steals; and the hands look like play at a real table, spread over what the rules allow.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.rules import game_types, get_ruleset, ruleset_class
from games.rules.sample import split

SAMPLES = 600


def samples(game_type, seed=11, count=SAMPLES):
    rng = random.Random(seed)
    return [ruleset_class(game_type).sample_hand(rng) for _ in range(count)]


@pytest.mark.parametrize("game_type", game_types())
def test_a_game_of_sampled_hands_plays_to_its_end_under_the_default_options(game_type):
    ruleset = get_ruleset(game_type)
    rng = random.Random(2)
    state = ruleset.initial_state()
    while not state.finished and state.hands_played < 2000:
        state = ruleset.play(state, ruleset.sample_hand(rng))
    assert state.finished


def test_a_split_shares_the_whole_total_and_any_part_may_get_nothing():
    rng = random.Random(4)
    splits = [split(rng, 13, 4) for _ in range(SAMPLES)]
    assert all(len(parts) == 4 and sum(parts) == 13 and min(parts) >= 0 for parts in splits)
    assert all(any(parts[seat] == 0 for parts in splits) for seat in range(4))
    assert max(max(parts) for parts in splits) >= 10


def test_spades_samples_bid_one_to_thirteen_near_the_tricks_taken():
    for hand in samples("spades"):
        for seat, took in hand["tricks"].items():
            bid = hand["bids"][seat]
            assert 1 <= bid <= 13 and (bid == 1 or took - 1 <= bid <= took + 1)
    assert any(1 in hand["bids"].values() for hand in samples("spades"))
    differences = Counter(hand["bids"]["N"] - hand["tricks"]["N"] for hand in samples("spades")
                          if hand["tricks"]["N"] > 1)
    # A bid one under what was taken, or exactly it, each about twice as often as one over.
    assert differences[-1] > 1.5 * differences[1] and differences[0] > 1.5 * differences[1] > 0


def test_smudge_samples_bid_two_to_four_with_every_point_sometimes_unscored():
    hands = samples("smudge")
    assert {hand["bid"] for hand in hands} == {2, 3, 4}
    assert {hand["bidder"] for hand in hands} == {"N", "E", "S", "W"}
    for point, sides in (("high", {"NS", "EW"}), ("low", {"NS", "EW"}), ("jack", {"NS", "EW", None}),
                         ("game", {"NS", "EW", None})):
        assert {hand[point] for hand in hands} == sides, point
    assert not any(hand["all_tricks"] or hand.get("forced") or hand.get("stolen") for hand in hands)
    # Bids of 2 and of 3 are each about twice as common as a bid of 4; a tie for Game is the rarest result.
    bids = Counter(hand["bid"] for hand in hands)
    assert bids[2] > 1.5 * bids[4] and bids[3] > 1.5 * bids[4]
    games = Counter(hand["game"] for hand in hands)
    assert games["NS"] > 1.5 * games[None] and games["EW"] > 1.5 * games[None]


def test_trumps_samples_bid_one_to_nine_undoubled_and_take_within_two_of_the_bid():
    hands = samples("trumps")
    assert {hand["bid"] for hand in hands} == set(range(1, 10))
    assert {hand["trump"] for hand in hands} == {"clubs", "diamonds", "hearts", "spades", "notrump"}
    assert {hand["declarer"] for hand in hands} == {"N", "E", "S", "W"}
    assert {hand["tricks"] - hand["bid"] for hand in hands if hand["bid"] > 2} == {-2, -1, 0, 1, 2}
    assert {hand["tricks"] for hand in hands if hand["bid"] == 1} == {0, 1, 2, 3}
    assert not any(hand["doubled"] or hand["redoubled"] for hand in hands)


def test_thieving_stink_samples_hold_stacks_of_four_to_nine_and_every_face_card_not_in_the_stack():
    hands = samples("thieving_stink")
    assert {hand["trump_stack"]["size"] for hand in hands} == set(range(4, 10))
    assert {hand["trump_stack"]["holder"] for hand in hands} == {"N", "E", "S", "W"}
    for hand in hands:
        won = hand["face_cards"]["NS"] + hand["face_cards"]["EW"]
        assert 16 - hand["trump_stack"]["size"] <= won <= 16
    won = {hand["face_cards"]["NS"] + hand["face_cards"]["EW"] + hand["trump_stack"]["size"] for hand in hands}
    assert min(won) == 16 and max(won) > 20
    assert any(hand["face_cards"]["NS"] == 0 for hand in hands) and any(hand["face_cards"]["EW"] == 0
                                                                         for hand in hands)

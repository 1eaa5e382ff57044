"""The player figures each game reports for a hand it scored (``Ruleset.figures``), and the rates shown."""

from __future__ import annotations

import random

import pytest

from games.rules import game_types, get_ruleset, ruleset_class


def figures(game_type, records, **options):
    """What each hand, as the engine scored it, adds to each seat's figures."""
    rules = get_ruleset(game_type, options)
    return [rules.figures(hand.record, hand.details) for hand in rules.replay(records).hands]


SPADES_NIL_HAND = {  # N's nil made; NS contract 4 takes 6: two bags; EW contract 8 takes 7: set
    "bids": {"N": "nil", "E": 5, "S": 4, "W": 3},
    "tricks": {"N": 0, "E": 3, "S": 6, "W": 4},
}


def test_spades_nil_made_partner_bag_and_a_set_contract():
    [counts] = figures("spades", [SPADES_NIL_HAND])
    assert counts["N"] == {"nils": 1, "nils_made": 1, "bags": 2}
    assert counts["S"] == {"bids": 1, "bids_made": 1, "bags": 2}
    assert counts["E"] == counts["W"] == {"bids": 1, "bids_made": 0, "bags": 0}


def test_spades_a_bid_of_zero_counts_as_a_nil():
    [counts] = figures("spades", [{**SPADES_NIL_HAND, "bids": {**SPADES_NIL_HAND["bids"], "N": 0}}])
    assert counts["N"] == {"nils": 1, "nils_made": 1, "bags": 2}


def test_spades_blind_nil_failed():
    _, counts = figures("spades", [
        {"bids": {"N": 5, "E": 4, "S": 4, "W": 0}, "tricks": {"N": 6, "E": 4, "S": 3, "W": 0}},
        {"bids": {"N": 4, "E": "blind_nil", "S": 4, "W": 4}, "tricks": {"N": 4, "E": 1, "S": 4, "W": 4}},
    ], blind_nil_deficit=0)
    assert counts["E"] == {"blind_nils": 1, "blind_nils_made": 0, "bags": 1}


def test_cutthroat_bags_are_each_players_own():
    record = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
    [counts] = figures("spades", [record], partnerships=False)
    assert counts["N"]["bags"] == 1 and counts["S"]["bags"] == 0


def test_smudge_counts_the_bidder_only():
    hand = {"bidder": "E", "bid": "smudge", "high": "EW", "low": "EW", "jack": "EW", "game": "EW",
            "all_tricks": True}
    assert figures("smudge", [hand]) == [{"E": {"bids": 1, "bids_made": 1, "smudge_bids": 1, "smudges_made": 1}}]


def test_smudge_set_bid():
    hand = {"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "EW", "game": "NS", "all_tricks": False}
    assert figures("smudge", [hand]) == [{"N": {"bids": 1, "bids_made": 0, "smudge_bids": 0, "smudges_made": 0}}]


def test_smudges_made_counts_only_smudge_bids_that_were_made():
    set_smudge = {"bidder": "W", "bid": "smudge", "high": "EW", "low": "EW", "jack": "EW", "game": "EW",
                  "all_tricks": False}  # every point, but a trick lost: set
    made_three = {"bidder": "S", "bid": 3, "high": "NS", "low": "NS", "jack": "NS", "game": "EW",
                  "all_tricks": False}
    assert figures("smudge", [set_smudge, made_three]) == [
        {"W": {"bids": 1, "bids_made": 0, "smudge_bids": 1, "smudges_made": 0}},
        {"S": {"bids": 1, "bids_made": 1, "smudge_bids": 0, "smudges_made": 0}},
    ]


@pytest.mark.parametrize("double", [{"doubled": True, "redoubled": False}, {"doubled": True, "redoubled": True}])
def test_trumps_doubled_contract_set(double):
    hand = {"declarer": "W", "bid": 9, "trump": "notrump", **double, "tricks": 8}
    assert figures("trumps", [hand]) == [
        {"W": {"contracts": 1, "contracts_made": 0, "doubled_contracts": 1, "doubled_made": 0}}]


def test_trumps_undoubled_contract_made():
    hand = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}
    assert figures("trumps", [hand]) == [
        {"N": {"contracts": 1, "contracts_made": 1, "doubled_contracts": 0, "doubled_made": 0}}]


def test_thieving_stink_stack_holder():
    hand = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "S", "size": 7}}
    assert figures("thieving_stink", [hand]) == [{"S": {"stack_holds": 1, "stack_cards": 7}}]


@pytest.mark.parametrize("game_type", game_types())
def test_every_game_counts_only_the_figures_it_names(game_type):
    rules = get_ruleset(game_type, {"target": 10**6})
    rng = random.Random(3)
    for hand in rules.replay([rules.sample_hand(rng) for _ in range(40)]).hands:
        for counts in rules.figures(hand.record, hand.details).values():
            assert set(counts) <= set(rules.figure_counts)
            assert all(isinstance(value, int) and value >= 0 for value in counts.values())


@pytest.mark.parametrize("game_type", game_types())
def test_every_rate_divides_counts_the_game_names(game_type):
    ruleset = ruleset_class(game_type)
    for rate in ruleset.figure_rates:
        assert {rate.part, rate.whole} <= {"hands", *ruleset.figure_counts}, rate.name


def test_rates_from_counts():
    counts = {"hands": 3, "stack_holds": 2, "stack_cards": 11}
    assert ruleset_class("thieving_stink").rates(counts) == {"stack_hold_rate": 0.6667, "average_stack": 5.5}
    assert ruleset_class("thieving_stink").rates({"hands": 3, "stack_holds": 0})["average_stack"] is None


@pytest.mark.parametrize("game_type", [kind for kind in game_types() if not ruleset_class(kind).figures_read_record])
def test_a_game_whose_figures_do_not_read_the_record_counts_the_same_without_it(game_type):
    """The league rebuild leaves these games' records unread, so their figures must come from the details alone."""
    rng = random.Random(17)
    rules = get_ruleset(game_type, {"target": 1_000_000})
    hands = rules.replay([ruleset_class(game_type).sample_hand(rng) for _ in range(300)]).hands
    assert all(rules.figures({}, hand.details) == rules.figures(hand.record, hand.details) for hand in hands)


def test_spades_nils_and_blind_nils_count_the_same_without_the_record():
    rules = get_ruleset("spades", {"blind_nil_deficit": 0})
    hands = rules.replay([SPADES_NIL_HAND, {"bids": {"N": 4, "E": "blind_nil", "S": 4, "W": 4},
                                            "tricks": {"N": 4, "E": 1, "S": 4, "W": 4}}]).hands
    assert [rules.figures({}, hand.details) for hand in hands] == [rules.figures(hand.record, hand.details)
                                                                  for hand in hands]


def test_a_rate_with_nothing_counted_of_its_part_is_zero():
    assert ruleset_class("thieving_stink").rates({"hands": 4}) == {"stack_hold_rate": 0.0, "average_stack": None}


def test_a_rate_with_nothing_counted_to_divide_by_is_none():
    assert ruleset_class("thieving_stink").rates({"stack_cards": 6}) == {"stack_hold_rate": None,
                                                                        "average_stack": None}


def test_a_rate_is_rounded_to_its_digits():
    assert ruleset_class("smudge").rates({"hands": 9, "bids": 3, "bids_made": 2, "smudge_bids": 0}) == {
        "bid_success": 0.6667, "smudge_success": None}
    assert ruleset_class("spades").rates({"hands": 7, "bags": 10})["bags_per_hand"] == 1.4286


@pytest.mark.parametrize(("count", "words"), [(0, "0 bags"), (1, "1 bag"), (2, "2 bags")])
def test_spades_bags_read_in_words(count, words):
    [bags] = ruleset_class("spades").extras_shown
    assert bags.name == "bags" and bags.words(count) == words

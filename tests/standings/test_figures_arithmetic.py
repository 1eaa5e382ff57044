"""Player figures counted from hands: from the engine's details, and from the record when they are missing."""

from __future__ import annotations

import pytest

from games.rules import get_ruleset
from games.standings.figures import FiguresBuilder, figure_rates, hand_counts

SEATS = {"N": 1, "E": 2, "S": 3, "W": 4}


def scored(game_type, records, **options):
    """(record, details) of each hand as the engine scores it."""
    state = get_ruleset(game_type, options).replay(records)
    return [(dict(hand.record), hand.details) for hand in state.hands]


SPADES_NIL_HAND = {  # N's nil made; NS contract 4 takes 6: two bags; EW contract 8 takes 7: set
    "bids": {"N": "nil", "E": 5, "S": 4, "W": 3},
    "tricks": {"N": 0, "E": 3, "S": 6, "W": 4},
}


def test_spades_nil_made_partner_bag_and_a_set_contract():
    ((record, details),) = scored("spades", [SPADES_NIL_HAND])
    counts = hand_counts("spades", record, details)
    assert counts["N"] == {"nils": 1, "nils_made": 1, "bags": 2}
    assert counts["S"] == {"bids": 1, "bids_made": 1, "bags": 2}
    assert counts["E"] == counts["W"] == {"bids": 1, "bids_made": 0, "bags": 0}


def test_spades_blind_nil_failed():
    records = [
        {"bids": {"N": 5, "E": 4, "S": 4, "W": 0}, "tricks": {"N": 6, "E": 4, "S": 3, "W": 0}},
        {"bids": {"N": 4, "E": "blind_nil", "S": 4, "W": 4}, "tricks": {"N": 4, "E": 1, "S": 4, "W": 4}},
    ]
    _, (record, details) = scored("spades", records, blind_nil_deficit=0)
    counts = hand_counts("spades", record, details)
    assert counts["E"] == {"blind_nils": 1, "blind_nils_made": 0, "bags": 1}


def test_spades_without_details_counts_from_the_record():
    counts = hand_counts("spades", SPADES_NIL_HAND, {})
    assert counts["N"] == {"nils": 1, "nils_made": 1, "bags": 2}
    assert counts["S"] == {"bids": 1, "bids_made": 1, "bags": 2}
    assert counts["E"] == {"bids": 1, "bids_made": 0, "bags": 0}


def test_cutthroat_bags_are_each_players_own():
    record = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
    ((record, details),) = scored("spades", [record], partnerships=False)
    counts = hand_counts("spades", record, details, partnerships=False)
    assert counts["N"]["bags"] == 1 and counts["S"]["bags"] == 0


@pytest.mark.parametrize("with_details", [True, False])
def test_smudge_counts_the_bidder_only(with_details):
    hand = {"bidder": "E", "bid": "smudge", "high": "EW", "low": "EW", "jack": "EW", "game": "EW",
            "all_tricks": True}
    ((record, details),) = scored("smudge", [hand])
    counts = hand_counts("smudge", record, details if with_details else {})
    assert counts == {"E": {"bids": 1, "bids_made": 1, "smudge_bids": 1, "smudges_made": 1}}


def test_smudge_set_bid():
    hand = {"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "EW", "game": "NS", "all_tricks": False}
    ((record, details),) = scored("smudge", [hand])
    assert hand_counts("smudge", record, details) == {"N": {"bids": 1, "bids_made": 0}}


@pytest.mark.parametrize("with_details", [True, False])
def test_trumps_doubled_contract_set(with_details):
    hand = {"declarer": "W", "bid": 9, "trump": "notrump", "doubled": True, "redoubled": False, "tricks": 8}
    ((record, details),) = scored("trumps", [hand])
    counts = hand_counts("trumps", record, details if with_details else {})
    assert counts == {"W": {"contracts": 1, "contracts_made": 0, "doubled_contracts": 1, "doubled_made": 0}}


def test_thieving_stink_stack_holder():
    hand = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "S", "size": 7}}
    ((record, details),) = scored("thieving_stink", [hand])
    assert hand_counts("thieving_stink", record, details) == {"S": {"stack_holds": 1, "stack_cards": 7}}
    assert hand_counts("thieving_stink", record, {}) == {"S": {"stack_holds": 1, "stack_cards": 7}}


def test_junk_never_stops_the_count():
    assert hand_counts("spades", {"bids": None}, None)["N"] == {"bags": 0}
    assert hand_counts("smudge", {}, {"made": True}) == {}
    assert hand_counts("trumps", "not a record", {}) == {}
    assert hand_counts("no_such_game", {}, {}) == {}


def test_builder_adds_hands_per_player_and_rates():
    builder = FiguresBuilder()
    for record, details in scored("thieving_stink", [
        {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "S", "size": 7}},
        {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "S", "size": 4}},
        {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "E", "size": 5}},
    ]):
        builder.add_hand("thieving_stink", SEATS, record, details)
    figures = builder.figures()
    assert figures[("thieving_stink", 3)] == {"hands": 3, "stack_holds": 2, "stack_cards": 11}
    assert figures[("thieving_stink", 1)] == {"hands": 3, "stack_holds": 0, "stack_cards": 0}
    assert figure_rates("thieving_stink", figures[("thieving_stink", 3)]) == {
        "stack_hold_rate": 0.6667, "average_stack": 5.5}
    assert figure_rates("thieving_stink", figures[("thieving_stink", 1)])["average_stack"] is None

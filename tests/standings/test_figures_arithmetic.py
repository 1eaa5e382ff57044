"""Player figures added up hand by hand, per game type and player, from what each game reports."""

from __future__ import annotations

from games.rules import get_ruleset
from games.standings.figures import FiguresBuilder

SEATS = {"N": 1, "E": 2, "S": 3, "W": 4}


def test_builder_adds_hands_per_player_and_names_every_count():
    rules = get_ruleset("thieving_stink", {})
    builder = FiguresBuilder()
    for hand in rules.replay([
        {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "S", "size": 7}},
        {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "S", "size": 4}},
        {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "E", "size": 5}},
    ]).hands:
        builder.add_hand(rules, SEATS, hand.record, hand.details)
    figures = builder.figures()
    assert figures[("thieving_stink", 3)] == {"hands": 3, "stack_holds": 2, "stack_cards": 11}
    assert figures[("thieving_stink", 1)] == {"hands": 3, "stack_holds": 0, "stack_cards": 0}


def test_builder_keeps_game_types_apart():
    builder = FiguresBuilder()
    for game_type, record in (
        ("smudge", {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": None, "game": None,
                    "all_tricks": False}),
        ("trumps", {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False,
                    "tricks": 8}),
    ):
        rules = get_ruleset(game_type, {})
        [hand] = rules.replay([record]).hands
        builder.add_hand(rules, SEATS, hand.record, hand.details)
    figures = builder.figures()
    assert figures[("smudge", 1)] == {"hands": 1, "bids": 1, "bids_made": 1, "smudge_bids": 0, "smudges_made": 0}
    assert figures[("trumps", 1)] == {"hands": 1, "contracts": 1, "contracts_made": 1, "doubled_contracts": 0,
                                      "doubled_made": 0}

"""What each side needs (``Ruleset.needs``), under each game's own way of winning and its house rules."""

from __future__ import annotations

import pytest

from games.rules import get_ruleset

NAMES = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}


def needs(game, options=None, *, totals, extras=None, finished=False, winner=None, names=NAMES):
    rules = get_ruleset(game, options or {})
    state = rules.resume(totals=totals, extras=extras, hands_played=3, finished=finished, winner=winner)
    return rules.needs(state, names)


CASES = [
    # --- Spades ---
    pytest.param("spades", {}, {"NS": 438, "EW": 420}, {"bags": {"NS": 7, "EW": 0}},
                 "NS need 62 to reach 500; EW need 80 to reach 500; NS are 3 bags from a penalty",
                 id="spades: points to the target, and bags to the penalty for a side with bags"),
    pytest.param("spades", {}, {"NS": 100, "EW": 90}, {"bags": {"NS": 9, "EW": 1}},
                 "NS need 400 to reach 500; EW need 410 to reach 500; NS are 1 bag from a penalty; "
                 "EW are 9 bags from a penalty",
                 id="spades: one bag from the penalty"),
    pytest.param("spades", {"bag_limit": 5, "target": 300}, {"NS": 100, "EW": 90}, {"bags": {"NS": 3, "EW": 0}},
                 "NS need 200 to reach 300; EW need 210 to reach 300; NS are 2 bags from a penalty",
                 id="spades: the league's target and bag limit"),
    pytest.param("spades", {"bag_mode": "minus_one"}, {"NS": 100, "EW": 90}, {"bags": {"NS": 0, "EW": 0}},
                 "NS need 400 to reach 500; EW need 410 to reach 500",
                 id="spades: no bags are counted under minus_one"),
    pytest.param("spades", {}, {"NS": 520, "EW": 520}, {"bags": {"NS": 0, "EW": 0}},
                 "NS and EW are level at 520: the game goes on until one is ahead at the end of a hand",
                 id="spades: level past the target, play goes on"),
    pytest.param("spades", {"lose_at": -200}, {"NS": -150, "EW": 90}, {"bags": {"NS": 0, "EW": 0}},
                 "NS need 650 to reach 500; EW need 410 to reach 500; NS are 50 above −200, where the game ends",
                 id="spades: with lose_at, how far the lowest side is from the score that ends the game"),
    pytest.param("spades", {"lose_at": -200}, {"NS": -210, "EW": -210}, {"bags": {"NS": 0, "EW": 0}},
                 "NS and EW are level at −210: the game goes on until one is ahead at the end of a hand; "
                 "NS need 710 to reach 500; EW need 710 to reach 500",
                 id="spades: level at the losing score, play goes on"),
    pytest.param("spades", {"lose_at": -200}, {"NS": -199, "EW": 90}, {"bags": {"NS": 0, "EW": 0}},
                 "NS need 699 to reach 500; EW need 410 to reach 500; NS are 1 above −200, where the game ends",
                 id="spades: with lose_at, one point above the score that ends the game"),
    pytest.param("spades", {"lose_at": -200}, {"NS": -200, "EW": -200}, {"bags": {"NS": 0, "EW": 0}},
                 "NS and EW are level at −200: the game goes on until one is ahead at the end of a hand; "
                 "NS need 700 to reach 500; EW need 700 to reach 500",
                 id="spades: level exactly on the losing score, play goes on"),
    pytest.param("spades", {"lose_at": -200, "partnerships": False}, {"N": 520, "E": 520, "S": -250, "W": 0},
                 {"bags": {"N": 0, "E": 0, "S": 0, "W": 0}},
                 "Ann and Bob are level at 520: the game goes on until one is ahead at the end of a hand; "
                 "Cat needs 750 to reach 500; Dan needs 500 to reach 500",
                 id="spades: level at the top past the target with a player past lose_at, said once"),
    pytest.param("spades", {"lose_at": -200, "partnerships": False}, {"N": 100, "E": 100, "S": -250, "W": 0},
                 {"bags": {"N": 0, "E": 0, "S": 0, "W": 0}},
                 "Ann and Bob are level at 100: the game goes on until one is ahead at the end of a hand; "
                 "Ann needs 400 to reach 500; Bob needs 400 to reach 500; Cat needs 750 to reach 500; "
                 "Dan needs 500 to reach 500",
                 id="spades: a player past lose_at ends nothing while the top is level short of the target"),
    pytest.param("spades", {"lose_at": -200, "partnerships": False}, {"N": 100, "E": 90, "S": -150, "W": 0},
                 {"bags": {"N": 0, "E": 0, "S": 0, "W": 0}},
                 "Ann needs 400 to reach 500; Bob needs 410 to reach 500; Cat needs 650 to reach 500; "
                 "Dan needs 500 to reach 500; Cat is 50 above −200, where the game ends",
                 id="spades: without partnerships, the player nearest lose_at by name"),
    pytest.param("spades", {"partnerships": False}, {"N": 520, "E": 520, "S": 300, "W": 100},
                 {"bags": {"N": 0, "E": 0, "S": 0, "W": 0}},
                 "Ann and Bob are level at 520: the game goes on until one is ahead at the end of a hand; "
                 "Cat needs 200 to reach 500; Dan needs 400 to reach 500",
                 id="spades: without partnerships, the players level at the top by name, then the others"),
    pytest.param("spades", {"partnerships": False}, {"N": 480, "E": 300, "S": 200, "W": 100},
                 {"bags": {"N": 2, "E": 0, "S": 0, "W": 0}},
                 "Ann needs 20 to reach 500; Bob needs 200 to reach 500; Cat needs 300 to reach 500; "
                 "Dan needs 400 to reach 500; Ann is 8 bags from a penalty",
                 id="spades: without partnerships each player by name"),
    # --- Smudge ---
    pytest.param("smudge", {}, {"NS": 18, "EW": 11}, None,
                 "NS need 3 more and must make a bid to win; EW need 10 more and must make a bid to win",
                 id="smudge: only a side that bids and makes its bid can win"),
    pytest.param("smudge", {}, {"NS": 23, "EW": 11}, None,
                 "NS have 23: making a bid wins; EW need 10 more and must make a bid to win",
                 id="smudge: a side past the target on defence wins by making a bid"),
    pytest.param("smudge", {}, {"NS": -4, "EW": 11}, None,
                 "NS need 25 more and must make a bid to win; EW need 10 more and must make a bid to win",
                 id="smudge: below zero"),
    pytest.param("smudge", {}, {"NS": 21, "EW": 20}, None,
                 "NS have 21: making a bid wins; EW need 1 more and must make a bid to win",
                 id="smudge: a side at the target exactly wins by making a bid, one short needs 1 more"),
    pytest.param("smudge", {"win_rule": "first_to_target", "target": 11}, {"NS": 8, "EW": 5}, None,
                 "NS need 3 to reach 11; EW need 6 to reach 11",
                 id="smudge: first to the target"),
    # --- Trumps ---
    pytest.param("trumps", {}, {"NS": 38, "EW": 12}, None, "NS need 12 to reach 50; EW need 38 to reach 50",
                 id="trumps: the first side to reach the target wins"),
    # --- Thieving Stink ---
    pytest.param("thieving_stink", {}, {"NS": 380, "EW": 455}, None,
                 "NS need 120 to reach 500; EW need 45 to reach 500",
                 id="thieving stink: points to the target"),
    pytest.param("thieving_stink", {}, {"NS": 500, "EW": 500}, None,
                 "NS and EW are level at 500: the game goes on until one is ahead at the end of a hand",
                 id="thieving stink: level on the target itself, play goes on"),
    pytest.param("thieving_stink", {}, {"NS": 510, "EW": 510}, None,
                 "NS and EW are level at 510: the game goes on until one is ahead at the end of a hand",
                 id="thieving stink: level past the target, play goes on"),
]


@pytest.mark.parametrize("game, options, totals, extras, sentence", CASES)
def test_what_each_side_needs(game, options, totals, extras, sentence):
    assert needs(game, options, totals=totals, extras=extras).text == sentence


@pytest.mark.parametrize("game, totals, winner", [
    ("spades", {"NS": 510, "EW": 420}, "NS"),
    ("smudge", {"NS": 21, "EW": 11}, "NS"),
    ("trumps", {"NS": 12, "EW": 52}, "EW"),
    ("thieving_stink", {"NS": 520, "EW": 455}, "NS"),
])
def test_a_game_over_needs_nothing(game, totals, winner):
    result = needs(game, totals=totals, finished=True, winner=winner)
    assert result.parts == () and result.text == ""


def test_the_parts_say_which_side_what_and_how_far():
    result = needs("spades", totals={"NS": 438, "EW": 420}, extras={"bags": {"NS": 7, "EW": 0}})
    assert result.as_dict()["parts"] == [
        {"side": "NS", "what": "target", "amount": 62, "text": "NS need 62 to reach 500"},
        {"side": "EW", "what": "target", "amount": 80, "text": "EW need 80 to reach 500"},
        {"side": "NS", "what": "bags", "amount": 3, "text": "NS are 3 bags from a penalty"},
    ]
    smudge = needs("smudge", totals={"NS": 18, "EW": 23})
    assert [(part.side, part.what, part.amount) for part in smudge.parts] == [
        ("NS", "target_on_bid", 3), ("EW", "target_on_bid", 0)]
    level = needs("thieving_stink", totals={"NS": 510, "EW": 510})
    assert level.as_dict()["parts"] == [{"side": None, "what": "level", "amount": 0, "text": level.text}]
    lose_at = needs("spades", {"lose_at": -200}, totals={"NS": -150, "EW": 90}, extras={"bags": {"NS": 0, "EW": 0}})
    assert lose_at.as_dict()["parts"][-1] == {
        "side": "NS", "what": "lose_at", "amount": 50, "text": "NS are 50 above −200, where the game ends"}
    first_to_target = needs("smudge", {"win_rule": "first_to_target", "target": 11}, totals={"NS": 8, "EW": 5})
    assert first_to_target.as_dict()["parts"] == [
        {"side": "NS", "what": "target", "amount": 3, "text": "NS need 3 to reach 11"},
        {"side": "EW", "what": "target", "amount": 6, "text": "EW need 6 to reach 11"},
    ]


def test_needs_follow_a_played_game():
    rules = get_ruleset("spades", {"target": 200})
    state = rules.replay([{"bids": {"N": 4, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 5, "E": 3, "S": 3, "W": 2}}])
    assert rules.needs(state).text == "NS need 129 to reach 200; EW need 260 to reach 200; NS are 9 bags from a penalty"

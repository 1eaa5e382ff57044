"""Refusals speak JSON, the language the hand was written in: ``not true``, ``not null``, ``not "3"``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    InvalidHand,
    InvalidOptions,
    RulesError,
    UnknownGame,
    game_types,
    get_ruleset,
    ruleset_class,
    shown,
)
from games.rules.trumps_match import match_result, match_seatings
from tests.rules.examples import examples

# --- shown ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (True, "true"),
        (False, "false"),
        (None, "null"),
        ("3", '"3"'),
        (3, "3"),
        (-1, "-1"),
        (2.5, "2.5"),
        ("it's", '"it\'s"'),
        ('say "nil"', r'"say \"nil\""'),
        ("Pík ♠", '"Pík ♠"'),
        ([1, "nil", None], '[1, "nil", null]'),
        ({"N": True}, '{"N": true}'),
    ],
)
def test_shown_writes_a_value_as_json(value, text):
    assert shown(value) == text


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no")


def test_shown_falls_back_for_values_json_cannot_write():
    circular: list = []
    circular.append(circular)
    assert shown({1, 2}) == "{1, 2}"
    assert shown(b"3") == "b'3'"
    assert shown(circular) == "[[...]]"
    assert shown(Unprintable()) == "a Unprintable"


# --- the engine's messages ------------------------------------------------------------------------

SPADES = {"bids": {"N": 3, "E": 3, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 4, "W": 2}}
SMUDGE = {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": None, "game": None, "all_tricks": False}
TRUMPS = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7}
STINK = {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}}
HANDS = {"spades": SPADES, "smudge": SMUDGE, "trumps": TRUMPS, "thieving_stink": STINK}


def refusal(game_type, record, **options):
    with pytest.raises(InvalidHand) as refused:
        get_ruleset(game_type, options).replay([record])
    return refused.value


@pytest.mark.parametrize("game_type", game_types())
def test_a_wrong_dealer_names_both_seats_plainly(game_type):
    refused = refusal(game_type, {**ruleset_class(game_type).record_example, "dealer": "E"}, first_dealer="S")
    assert (refused.number, refused.field, refused.message) == (1, "dealer", "it is S's deal, not E's")


@pytest.mark.parametrize(
    ("game_type", "changes", "field", "message"),
    [
        ("spades", {"bids": {**SPADES["bids"], "W": True}}, "bids.W",
         'bids.W must be a whole number from 0 to 13, "nil" or "blind_nil", not true'),
        ("spades", {"tricks": {**SPADES["tricks"], "N": "4"}}, "tricks.N",
         'tricks.N must be a whole number from 0 to 13, not "4"'),
        ("spades", {"tricks": {**SPADES["tricks"], "X": 0}}, "tricks",
         'tricks has an unknown seat "X"; seats are N, E, S, W'),
        ("smudge", {"bid": None}, "bid", "bid must be 2, 3, 4, 5 or smudge (a bid of five), not null"),
        ("smudge", {"bid": "3"}, "bid", 'bid must be 2, 3, 4, 5 or smudge (a bid of five), not "3"'),
        ("smudge", {"jack": "ns"}, "jack", 'jack must be one of NS, EW or null, not "ns"'),
        ("smudge", {"all_tricks": None}, "all_tricks", "all_tricks must be true or false, not null"),
        ("smudge", {"forced": "yes"}, "forced", 'forced must be true or false, not "yes"'),
        ("trumps", {"declarer": False}, "declarer", "declarer must be one of N, E, S, W, not false"),
        ("trumps", {"bid": [7]}, "bid", "bid must be a whole number from 1 to 13, not [7]"),
        ("trumps", {"redoubled": 0}, "redoubled", "redoubled must be true or false, not 0"),
        ("thieving_stink", {"trump_stack": {"holder": None, "size": 4}}, "trump_stack.holder",
         "trump_stack.holder must be one of N, E, S, W, not null"),
        ("thieving_stink", {"lead": "Ñ"}, "lead", 'lead must be one of N, E, S, W, not "Ñ"'),
        ("trumps", {"Tricks": 7}, "Tricks",
         'unknown field "Tricks"; a trumps hand has: '
         "declarer, bid, trump, doubled, redoubled, tricks, dealer, note"),
    ],
)
def test_a_refused_value_is_shown_as_json(game_type, changes, field, message):
    refused = refusal(game_type, {**HANDS[game_type], **changes})
    assert (refused.field, refused.message) == (field, message)


def test_a_double_nil_asks_one_of_the_partners_to_bid():
    refused = refusal("spades", {**SPADES, "bids": {"N": 3, "E": "nil", "S": 4, "W": 0}})
    assert refused.message == (
        "E and W both bid nil; one of the partners must bid at least 1 trick "
        "(double nil is not allowed in this game)"
    )


@pytest.mark.parametrize(
    ("game_type", "options", "error", "message"),
    [
        ("spades", {"target": True}, InvalidOptions,
         "target must be a whole number from 1 to 1,000,000, not true"),
        ("spades", {"target": "500"}, InvalidOptions,
         'target must be a whole number from 1 to 1,000,000, not "500"'),
        ("spades", {"partnerships": None}, InvalidOptions, "partnerships must be true or false, not null"),
        ("spades", {"lose_at": 2.5}, InvalidOptions,
         "lose_at must be a whole number from -1,000,000 to 1,000,000 (or null), not 2.5"),
        ("trumps", {"double_scope": "All"}, InvalidOptions,
         'double_scope must be one of all, contract_only, not "All"'),
        ("smudge", {"first_dealer": None}, InvalidOptions, "first_dealer must be one of N, E, S, W, not null"),
        ("trumps", {"targte": 40}, InvalidOptions,
         'unknown option "targte" for trumps; valid options: first_dealer, target, double_scope, match_tiebreak, '
         'last_hand'),
        ("bridge", {}, UnknownGame,
         'unknown game "bridge"; valid games: spades, smudge, trumps, thieving_stink'),
        (None, {}, UnknownGame,
         "unknown game null; valid games: spades, smudge, trumps, thieving_stink"),
    ],
)
def test_refused_games_and_options_show_the_value_as_json(game_type, options, error, message):
    with pytest.raises(error) as refused:
        get_ruleset(game_type, options)
    assert refused.value.message == message


def test_match_refusals_show_the_value_as_json():
    with pytest.raises(RulesError) as refused:
        match_seatings({"N": 1, "E": 2, "S": 3, "W": 4}, "n")
    assert refused.value.message == 'first_dealer must be one of N, E, S, W, not "n"'
    seatings = match_seatings({"N": 1, "E": 2, "S": 3, "W": 4}, "N")
    with pytest.raises(RulesError) as refused:
        match_result(seatings, [{"NS": 50, "EW": None}])
    assert refused.value.message == "a Trumps total is a whole number of at least 0, not null"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3),
    max_leaves=6,
)


@settings(max_examples=examples(200), deadline=None)
@given(value=JSON_VALUES.filter(lambda value: not (type(value) is int and 1 <= value <= 13)))
def test_any_refused_value_reads_back_as_the_json_that_was_sent(value):
    # What a client sent, decoded and shown again, is the JSON it wrote (give or take spacing).
    sent = json.dumps(value, ensure_ascii=False)
    refused = refusal("trumps", {**TRUMPS, "bid": json.loads(sent)})
    assert refused.message == f"bid must be a whole number from 1 to 13, not {sent}"


# --- what every game checks the same way ------------------------------------------------------------


@pytest.mark.parametrize("game_type", game_types())
@pytest.mark.parametrize(
    ("record", "field", "message"),
    [
        (["N", 3], None, "a hand must be an object of fields"),
        ({"dealer": "north"}, "dealer", "dealer must be one of N, E, S, W"),
        ({"note": ["late"]}, "note", "a note must be text"),
    ],
)
def test_every_game_refuses_a_hand_that_is_not_one(game_type, record, field, message):
    if isinstance(record, dict):
        record = {**ruleset_class(game_type).record_example, **record}
    refused = refusal(game_type, record)
    assert (refused.number, refused.field, refused.message) == (1, field, message)


@pytest.mark.parametrize("game_type", game_types())
def test_every_game_names_the_first_missing_field(game_type):
    example = ruleset_class(game_type).record_example
    first = next(iter(example))
    refused = refusal(game_type, {name: value for name, value in example.items() if name != first})
    assert (refused.field, refused.message) == (first, f"{first} is missing")


def test_a_refusal_reads_as_a_line_naming_the_hand():
    rules = get_ruleset("trumps", {})
    with pytest.raises(InvalidHand) as refused:
        rules.replay([TRUMPS, TRUMPS, {**TRUMPS, "tricks": 14}])
    assert str(refused.value) == "hand 3: tricks must be a whole number from 0 to 13, not 14"
    assert refused.value.args == ("tricks must be a whole number from 0 to 13, not 14",)


def test_a_drawn_game_takes_no_more_hands():
    rules = get_ruleset("smudge", {})
    state = rules.resume(totals={"NS": 12, "EW": 9}, extras=None, hands_played=7, finished=True)
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, SMUDGE)
    assert (refused.value.number, refused.value.field, refused.value.message) == (
        8, None, "the game is already over: a draw; no more hands can be added")

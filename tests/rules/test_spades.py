"""Spades: one focused test per rule, ruling and refusal, then hypothesis properties.

The score-sheet examples live in ``cases/spades.json``; these tests show one rule each.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import SEATS, InvalidHand, InvalidOptions, get_ruleset
from games.rules.spades import Spades
from tests.rules.examples import examples


def hand(bids, tricks, **extra):
    return {"bids": dict(zip(SEATS, bids, strict=True)), "tricks": dict(zip(SEATS, tricks, strict=True)), **extra}


def play(hands, **options):
    return get_ruleset("spades", options).replay(hands)


def refusal(hands, **options) -> InvalidHand:
    with pytest.raises(InvalidHand) as refused:
        play(hands, **options)
    return refused.value


# NS bid 7 and take 9; EW bid 6 and take 4.
SEVEN_TAKE_NINE = hand([3, 3, 4, 3], [5, 2, 4, 2])
# N bids nil and takes 2; S bids 5 and takes 4; EW bid 7 and take 7.
FAILED_NIL = hand(["nil", 4, 5, 3], [2, 4, 4, 3])
# NS bid 8 and take 10 (82); EW bid 4 and take 3 (-40): EW is 122 behind.
NS_AHEAD_122 = hand([4, 2, 4, 2], [5, 1, 5, 2])
# E bids blind nil and takes nothing; W bids 4 and takes 4; NS bid 6 and take 9.
EAST_BLIND_NIL = hand([3, "blind_nil", 3, 4], [5, 0, 4, 4])
# NS bid 2 and take 10; EW bid 2 and take 3.
BAG_HEAVY = hand([1, 1, 1, 1], [5, 2, 5, 1])


# --- the examples in docs/rules/spades.md ----------------------------------------------------------


def test_contract_made_scores_ten_per_trick_bid_and_one_per_overtrick_each_a_bag():
    state = play([SEVEN_TAKE_NINE])
    assert state.totals["NS"] == 72
    assert state.extras["bags"]["NS"] == 2


def test_contract_set_loses_ten_per_trick_bid_and_gains_no_bags():
    state = play([hand([4, 3, 4, 2], [3, 4, 3, 3])])
    assert state.totals["NS"] == -80
    assert state.extras["bags"]["NS"] == 0


def test_nil_made_beside_a_partner_made_exactly_scores_fifty_and_forty():
    state = play([hand(["nil", 5, 4, 3], [0, 5, 4, 4])])
    assert state.totals["NS"] == 90
    assert state.hands[0].details["sides"]["NS"]["contract"] == 4
    assert state.hands[0].details["nils"] == [{"seat": "N", "blind": False, "made": True}]


# --- bids, nil and blind nil ---------------------------------------------------------------------


def test_a_bid_of_zero_is_nil():
    assert play([hand([0, 5, 4, 3], [0, 5, 4, 4])]).totals == play([hand(["nil", 5, 4, 3], [0, 5, 4, 4])]).totals


def test_failed_nil_loses_nil_value():
    state = play([FAILED_NIL])
    assert state.hands[0].details["nils"] == [{"seat": "N", "blind": False, "made": False}]
    assert state.hands[0].details["bids_made"]["N"] is False


def test_failed_nil_tricks_count_for_partner():
    # S bid 5 and took 4; N's 2 tricks make it with one over: 50 + 1 - 50.
    state = play([FAILED_NIL])
    assert state.totals["NS"] == 1
    assert state.extras["bags"]["NS"] == 1
    assert state.hands[0].details["bids_made"]["S"] is True


def test_failed_nil_tricks_bags_only_score_one_and_a_bag_but_do_not_make_the_contract():
    state = play([FAILED_NIL], failed_nil_tricks="bags_only")
    assert state.totals["NS"] == -50 + 2 - 50
    assert state.extras["bags"]["NS"] == 2
    assert state.hands[0].details["sides"]["NS"]["made"] is False


def test_failed_nil_tricks_ignore_score_nothing():
    state = play([FAILED_NIL], failed_nil_tricks="ignore")
    assert state.totals["NS"] == -100
    assert state.extras["bags"]["NS"] == 0


def test_blind_nil_scores_blind_nil_value_for_a_side_far_enough_behind():
    state = play([NS_AHEAD_122, EAST_BLIND_NIL])
    assert state.hands[1].delta["EW"] == 100 + 40
    assert state.hands[1].details["nils"] == [{"seat": "E", "blind": True, "made": True}]


def test_blind_nil_needs_the_side_to_be_blind_nil_deficit_behind():
    refused = refusal([hand([4, 3, 4, 2], [4, 3, 4, 2]), EAST_BLIND_NIL])  # EW is 30 behind
    assert refused.number == 2
    assert refused.field == "bids.E"
    assert refused.message == "blind nil needs EW to be at least 100 behind; EW is 30 behind"


def test_blind_nil_refused_says_how_far_behind_ahead_or_level_the_side_is():
    rules = Spades({})
    for totals, standing in [({"NS": 101, "EW": 100}, "EW is 1 behind"), ({"NS": 100, "EW": 100}, "the scores are level"),
                             ({"NS": 100, "EW": 101}, "EW is 1 ahead")]:
        with pytest.raises(InvalidHand) as refused:
            rules.play(rules.resume(totals=totals, extras=None, hands_played=2), EAST_BLIND_NIL)
        assert refused.value.message == f"blind nil needs EW to be at least 100 behind; {standing}"


def test_blind_nil_deficit_zero_allows_blind_nil_at_any_score():
    state = play([SEVEN_TAKE_NINE, hand(["blind_nil", 3, 5, 3], [0, 4, 5, 4])], blind_nil_deficit=0)
    assert state.hands[1].details["nils"][0]["made"] is True


def test_blind_nil_allowed_false_refuses_blind_nil():
    refused = refusal([NS_AHEAD_122, EAST_BLIND_NIL], blind_nil_allowed=False)
    assert (refused.field, refused.message) == ("bids.E", "blind nil is not allowed in this game")


def test_blind_nil_is_checked_against_resumed_totals():
    rules = Spades({})
    state = rules.resume(totals={"NS": 300, "EW": 150}, extras=None, hands_played=6)
    assert rules.play(state, EAST_BLIND_NIL).totals["EW"] == 150 + 140


def test_blind_nil_is_allowed_exactly_blind_nil_deficit_behind():
    rules = Spades({})
    exactly = rules.resume(totals={"NS": 200, "EW": 100}, extras=None, hands_played=2)
    assert rules.play(exactly, EAST_BLIND_NIL).totals["EW"] == 240
    short_by_one = rules.resume(totals={"NS": 199, "EW": 100}, extras=None, hands_played=2)
    with pytest.raises(InvalidHand, match="EW is 99 behind"):
        rules.play(short_by_one, EAST_BLIND_NIL)


def test_double_nil_is_refused_naming_both_seats():
    refused = refusal([hand(["nil", 5, "nil", 5], [0, 7, 0, 6])])
    assert refused.field == "bids"
    assert refused.message == (
        "N and S both bid nil; one of the partners must bid at least 1 trick "
        "(double nil is not allowed in this game)"
    )


def test_partners_both_bidding_zero_are_a_double_nil_too():
    refused = refusal([hand([0, 5, 0, 5], [0, 7, 0, 6])])
    assert (refused.field, refused.message) == (
        "bids", "N and S both bid nil; one of the partners must bid at least 1 trick "
                "(double nil is not allowed in this game)")


def test_a_hands_nils_are_listed_in_seat_order():
    state = play([hand([4, "nil", "nil", 5], [6, 0, 1, 6])])
    assert state.hands[0].details["nils"] == [{"seat": "E", "blind": False, "made": True},
                                              {"seat": "S", "blind": False, "made": False}]


def test_double_nil_allowed_makes_the_contract_zero_and_every_trick_a_bag():
    for failed_nil_tricks in ("count", "bags_only", "ignore"):
        state = play([hand(["nil", 5, "nil", 5], [0, 6, 2, 5])], allow_double_nil=True,
                     failed_nil_tricks=failed_nil_tricks)
        assert state.totals["NS"] == 50 - 50 + 2
        assert state.extras["bags"]["NS"] == 2


# --- bags ----------------------------------------------------------------------------------------


def test_reaching_the_bag_limit_costs_the_bag_penalty_and_the_rest_carry():
    state = play([BAG_HEAVY, BAG_HEAVY])
    assert [hand.delta["NS"] for hand in state.hands] == [28, 28 - 100]
    assert state.extras["bags"]["NS"] == 6


def test_bags_can_go_round_the_limit_more_than_once_in_a_hand():
    state = play([BAG_HEAVY], bag_limit=3, bag_penalty=40)
    assert state.totals["NS"] == 28 - 2 * 40
    assert state.extras["bags"]["NS"] == 2
    assert state.hands[0].details["sides"]["NS"]["bag_penalty"] == 80


def test_bag_mode_minus_one_scores_minus_one_per_overtrick_and_counts_no_bags():
    state = play([SEVEN_TAKE_NINE], bag_mode="minus_one")
    assert state.totals["NS"] == 68
    assert dict(state.extras["bags"]) == {"NS": 0, "EW": 0}


def test_bag_mode_none_scores_one_per_overtrick_and_counts_no_bags():
    state = play([BAG_HEAVY, BAG_HEAVY], bag_mode="none")
    assert state.totals["NS"] == 56
    assert dict(state.extras["bags"]) == {"NS": 0, "EW": 0}


def test_bags_are_in_the_extras_after_every_hand():
    state = play([hand([4, 3, 4, 2], [4, 3, 4, 2])])
    assert dict(state.hands[0].extras["bags"]) == {"NS": 0, "EW": 0}
    assert state.hands[0].as_dict()["bags"] == {"NS": 0, "EW": 0}


# --- the end -------------------------------------------------------------------------------------


def test_a_side_reaching_the_target_wins():
    state = play([SEVEN_TAKE_NINE], target=72)
    assert (state.finished, state.winner) == (True, "NS")


def test_a_tie_at_the_top_plays_on():
    state = play([hand([3, 3, 3, 4], [3, 4, 3, 3]), hand([3, 3, 4, 3], [4, 3, 3, 3])], target=100)
    assert dict(state.totals) == {"NS": 130, "EW": 130}
    assert not state.finished


def test_lose_at_ends_the_game_and_the_highest_score_wins():
    set_thirteen = hand([6, 4, 7, 5], [2, 4, 2, 5])  # NS -130, EW +90
    assert not play([set_thirteen], lose_at=-131).finished
    state = play([set_thirteen], lose_at=-130)
    assert (state.finished, state.winner) == (True, "EW")


def test_lose_at_may_be_positive():
    state = play([hand([4, 3, 4, 2], [4, 3, 4, 2])], lose_at=60)  # NS 80, EW 50
    assert (state.finished, state.winner) == (True, "NS")


def test_no_hand_after_the_game_is_won():
    rules = Spades({"target": 50})
    state = rules.replay([SEVEN_TAKE_NINE])
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, SEVEN_TAKE_NINE)
    assert (refused.value.number, refused.value.field) == (2, None)
    assert "already over: NS won" in refused.value.message


# --- without partnerships ------------------------------------------------------------------------


def test_without_partnerships_every_seat_scores_alone_with_its_own_bags():
    state = play([hand([3, "nil", 4, 2], [4, 0, 5, 4])], partnerships=False)
    assert dict(state.totals) == {"N": 31, "E": 50, "S": 41, "W": 22}
    assert dict(state.extras["bags"]) == {"N": 1, "E": 0, "S": 1, "W": 2}
    assert Spades({"partnerships": False}).side_of("E") == "E"


@pytest.mark.parametrize(("failed_nil_tricks", "east", "bags"), [("count", -48, 2), ("bags_only", -48, 2),
                                                                 ("ignore", -50, 0)])
def test_without_partnerships_a_failed_nils_tricks_are_bags_unless_ignored(failed_nil_tricks, east, bags):
    state = play([hand([3, "nil", 4, 2], [4, 2, 4, 3])], partnerships=False, failed_nil_tricks=failed_nil_tricks)
    assert state.totals["E"] == east
    assert state.extras["bags"]["E"] == bags


def test_without_partnerships_blind_nil_is_refused():
    refused = refusal([hand([3, "blind_nil", 4, 2], [4, 0, 5, 4])], partnerships=False, blind_nil_deficit=0)
    assert (refused.field, refused.message) == ("bids.E", "blind nil is not allowed without partnerships")


def test_without_partnerships_seats_opposite_may_both_bid_nil():
    state = play([hand(["nil", 5, "nil", 5], [0, 7, 0, 6])], partnerships=False)
    assert (state.totals["N"], state.totals["S"]) == (50, 50)


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", SEATS)
def test_four_seats_with_one_misnamed_are_refused_for_the_seat_left_out(seat):
    bids = {("X" if each == seat else each): 3 for each in SEATS}
    refused = refusal([{"bids": bids, "tricks": dict(zip(SEATS, [4, 3, 3, 3], strict=True))}])
    assert (refused.field, refused.message) == ("bids", f"bids has nothing for {seat}; give a bid for each of N, E, S, W")


@pytest.mark.parametrize(
    ("record", "field", "message"),
    [
        (hand([3, 3, 4, 3], [5, 2, 4, 1]), "tricks", "tricks add up to 12; they must add up to 13"),
        (hand([3, 3, 4, 3], [5, 3, 4, 2]), "tricks", "tricks add up to 14; they must add up to 13"),
        ({"bids": {"N": 3, "E": 3, "S": 4}, "tricks": dict(zip(SEATS, [5, 2, 4, 2], strict=True))},
         "bids", "bids has nothing for W; give a bid for each of N, E, S, W"),
        ({"bids": dict(zip(SEATS, [3, 3, 4, 3], strict=True)), "tricks": {"N": 5, "E": 2, "S": 6, "W": 0, "NE": 0}},
         "tricks", 'tricks has an unknown seat "NE"; seats are N, E, S, W'),
        ({"bids": [3, 3, 4, 3], "tricks": dict(zip(SEATS, [5, 2, 4, 2], strict=True))},
         "bids", "bids must give a bid for each of N, E, S, W"),
        (hand([3, 3, 4, 3], [5, 2, 4, 2]) | {"tricks": 13}, "tricks", "tricks must give the tricks taken"),
        (hand([3, "pass", 4, 3], [5, 2, 4, 2]), "bids.E",
         'bids.E must be a whole number from 0 to 13, "nil" or "blind_nil", not "pass"'),
        (hand([3, True, 4, 3], [5, 2, 4, 2]), "bids.E",
         'bids.E must be a whole number from 0 to 13, "nil" or "blind_nil", not true'),
        (hand([3, None, 4, 3], [5, 2, 4, 2]), "bids.E", '"nil" or "blind_nil", not null'),
        (hand([3, "3", 4, 3], [5, 2, 4, 2]), "bids.E", '"nil" or "blind_nil", not "3"'),
        (hand([3, -1, 4, 3], [5, 2, 4, 2]), "bids.E", "not -1"),
        (hand([3, 2.0, 4, 3], [5, 2, 4, 2]), "bids.E", "not 2.0"),
        (hand([3, 3, 4, 3], [5, 2, 4, False]), "tricks.W", "tricks.W must be a whole number from 0 to 13"),
        (hand([3, 3, 4, 3], [-1, 2, 4, 8]), "tricks.N", "not -1"),
        (hand([3, 3, 4, 3], [5, 2, 4, 2]) | {"trump": "spades"}, "trump", 'unknown field "trump"'),
        ({"bids": dict(zip(SEATS, [3, 3, 4, 3], strict=True))}, "tricks", "tricks is missing"),
        (hand([4, "nil", 4, 0], [6, 0, 5, 2]), "bids", "E and W both bid nil"),
    ],
)
def test_a_hand_the_rules_do_not_allow_is_refused_with_its_field(record, field, message):
    refused = refusal([record])
    assert (refused.number, refused.field) == (1, field)
    assert message in refused.message


# --- options -------------------------------------------------------------------------------------


def test_option_defaults_are_the_rulings():
    assert {name: value for name, value in Spades({}).options.items()} == {
        "first_dealer": "N", "target": 500, "nil_value": 50, "blind_nil_value": 100,
        "failed_nil_tricks": "count", "bag_mode": "cycle", "bag_limit": 10, "bag_penalty": 100,
        "blind_nil_allowed": True, "blind_nil_deficit": 100, "allow_double_nil": False, "lose_at": None,
        "partnerships": True, "last_hand": None,
    }


def test_every_option_has_a_one_sentence_help():
    for spec in Spades.option_specs:
        assert spec.help.endswith(".") and spec.help.count(". ") == 0, spec.name


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target": 0}, "target"),
        ({"nil_value": -1}, "nil_value"),
        ({"blind_nil_value": "100"}, "blind_nil_value"),
        ({"failed_nil_tricks": "partner"}, "failed_nil_tricks"),
        ({"bag_mode": "penalty"}, "bag_mode"),
        ({"bag_limit": 0}, "bag_limit"),
        ({"bag_penalty": 0}, "bag_penalty"),
        ({"blind_nil_allowed": 1}, "blind_nil_allowed"),
        ({"blind_nil_deficit": -100}, "blind_nil_deficit"),
        ({"allow_double_nil": "yes"}, "allow_double_nil"),
        ({"lose_at": -200.5}, "lose_at"),
        ({"partnerships": None}, "partnerships"),
        ({"bags": 10}, "bags"),
    ],
)
def test_an_option_value_it_does_not_take_is_refused(options, field):
    with pytest.raises(InvalidOptions) as refused:
        Spades(options)
    assert refused.value.field == field


def test_lose_at_takes_any_whole_number_or_null():
    for value in (-500, 0, 200, None):
        assert Spades({"lose_at": value}).options["lose_at"] == value


@pytest.mark.parametrize(
    ("option", "value", "hands"),
    [
        ("target", 72, [SEVEN_TAKE_NINE]),
        ("nil_value", 100, [hand(["nil", 5, 4, 3], [0, 5, 4, 4])]),
        ("blind_nil_value", 200, [NS_AHEAD_122, EAST_BLIND_NIL]),
        ("failed_nil_tricks", "bags_only", [FAILED_NIL]),
        ("failed_nil_tricks", "ignore", [FAILED_NIL]),
        ("bag_mode", "minus_one", [SEVEN_TAKE_NINE]),
        ("bag_mode", "none", [BAG_HEAVY, BAG_HEAVY]),
        ("bag_limit", 8, [BAG_HEAVY]),
        ("bag_penalty", 50, [BAG_HEAVY, BAG_HEAVY]),
        ("blind_nil_deficit", 0, [hand(["blind_nil", 3, 5, 3], [0, 4, 5, 4])]),
        ("allow_double_nil", True, [hand(["nil", 5, "nil", 5], [0, 6, 2, 5])]),
        ("lose_at", -100, [hand([6, 4, 7, 5], [2, 4, 2, 5])]),
        ("partnerships", False, [SEVEN_TAKE_NINE]),
        ("blind_nil_allowed", False, [NS_AHEAD_122, EAST_BLIND_NIL]),
        ("first_dealer", "E", [SEVEN_TAKE_NINE]),
    ],
)
def test_every_option_value_changes_an_outcome(option, value, hands):
    def outcome(options):
        try:
            return play(hands, **options).as_dict()
        except InvalidHand as refused:
            return str(refused)

    assert outcome({}) != outcome({option: value})


# --- details -------------------------------------------------------------------------------------


def test_details_say_how_each_side_and_each_nil_did_and_are_json():
    details = play([FAILED_NIL]).hands[0].details
    assert details["sides"]["NS"] == {"contract": 5, "tricks": 6, "made": True, "overtricks": 1, "bags": 1,
                                      "bag_penalty": 0}
    assert details["bids_made"] == {"N": False, "E": True, "S": True, "W": True}
    json.dumps(dict(details))


# --- properties ----------------------------------------------------------------------------------

tricks_strategy = st.lists(st.sampled_from(SEATS), min_size=13, max_size=13).map(
    lambda winners: {seat: winners.count(seat) for seat in SEATS}
)
bid_strategy = st.one_of(st.integers(1, 13), st.sampled_from(["nil", 0, "blind_nil"]))
options_strategy = st.fixed_dictionaries(
    {
        "target": st.integers(50, 600),
        "nil_value": st.sampled_from([0, 50, 100]),
        "blind_nil_value": st.sampled_from([100, 200]),
        "failed_nil_tricks": st.sampled_from(["count", "bags_only", "ignore"]),
        "bag_mode": st.sampled_from(["cycle", "minus_one", "none"]),
        "bag_limit": st.integers(1, 12),
        "bag_penalty": st.sampled_from([1, 50, 100]),
        "blind_nil_deficit": st.just(0),
        "allow_double_nil": st.booleans(),
        "lose_at": st.one_of(st.none(), st.integers(-400, -50)),
        "partnerships": st.booleans(),
    }
)


@st.composite
def valid_hand(draw, options):
    """A hand every set of options drawn by ``options_strategy`` allows."""
    bids = {seat: draw(bid_strategy) for seat in SEATS}
    if not options.get("partnerships", True):
        bids = {seat: "nil" if bid == "blind_nil" else bid for seat, bid in bids.items()}
    elif not options.get("allow_double_nil", False):
        for first, second in (("N", "S"), ("E", "W")):
            if bids[first] in ("nil", 0, "blind_nil") and bids[second] in ("nil", 0, "blind_nil"):
                bids[second] = draw(st.integers(1, 13))
    if options.get("blind_nil_deficit", 100) != 0:
        bids = {seat: "nil" if bid == "blind_nil" else bid for seat, bid in bids.items()}
    return {"bids": bids, "tricks": draw(tricks_strategy)}


@st.composite
def game(draw, options=None, max_hands=12):
    options = draw(options_strategy) if options is None else options
    rules = Spades(options)
    state = rules.initial_state()
    for _ in range(draw(st.integers(1, max_hands))):
        if state.finished:
            break
        state = rules.play(state, draw(valid_hand(options)))
    return rules, state


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_every_generated_hand_has_thirteen_tricks_and_is_accepted(data):
    options = data.draw(options_strategy)
    record = data.draw(valid_hand(options))
    assert sum(record["tricks"].values()) == 13
    state = Spades(options).play(Spades(options).initial_state(), record)
    if options["partnerships"] and options["failed_nil_tricks"] == "count":
        assert sum(side["tricks"] for side in state.hands[0].details["sides"].values()) == 13


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), st.integers(-13, 13).filter(bool), st.sampled_from(SEATS))
def test_tricks_not_adding_up_to_13_are_refused(data, off_by, seat):
    record = data.draw(valid_hand({}))
    tricks = dict(record["tricks"])
    if not 0 <= tricks[seat] + off_by <= 13:
        off_by = -off_by
    if not 0 <= tricks[seat] + off_by <= 13:
        return
    tricks[seat] += off_by
    refused = refusal([{**record, "tricks": tricks}])
    assert refused.field == "tricks"
    assert refused.message == f"tricks add up to {13 + off_by}; they must add up to 13"


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), st.integers(1, 12))
def test_bags_stay_below_the_bag_limit_in_cycle_mode(data, bag_limit):
    options = {"bag_limit": bag_limit, "target": 10_000, "blind_nil_deficit": 0}
    _, state = data.draw(game(options, max_hands=15))
    for scored in state.hands:
        assert all(0 <= bags < bag_limit for bags in scored.extras["bags"].values())


@settings(max_examples=examples(200), deadline=None)
@given(game({"target": 10_000}, max_hands=15))
def test_with_default_options_a_total_minus_its_bags_is_a_multiple_of_ten(rules_and_state):
    _, state = rules_and_state
    for scored in state.hands:
        for side in ("NS", "EW"):
            assert (scored.totals[side] - scored.extras["bags"][side]) % 10 == 0


@settings(max_examples=examples(200), deadline=None)
@given(game(), st.data())
def test_replaying_equals_summing_the_deltas(rules_and_state, data):
    rules, state = rules_and_state
    records = [scored.record for scored in state.hands]
    for side in rules.sides:
        assert state.totals[side] == sum(scored.delta[side] for scored in state.hands)
    assert rules.replay(records).as_dict() == state.as_dict()
    split = data.draw(st.integers(0, len(records)))
    first = rules.replay(records[:split])
    assert rules.replay(records[split:], start=first).as_dict() == state.as_dict()
    resumed = rules.resume(totals=first.totals, extras=first.extras, hands_played=split)
    assert dict(rules.replay(records[split:], start=resumed).totals) == dict(state.totals)


@settings(max_examples=examples(200), deadline=None)
@given(game(), st.data())
def test_a_refused_hand_leaves_the_state_unchanged(rules_and_state, data):
    rules, state = rules_and_state
    before = state.as_dict()
    record = data.draw(valid_hand(dict(rules.options)))
    broken = data.draw(st.sampled_from([
        {**record, "tricks": {**record["tricks"], "N": (record["tricks"]["N"] + 1) % 14}},
        {**record, "bids": {**record["bids"], "S": 14}},
        {**record, "bids": {seat: bid for seat, bid in record["bids"].items() if seat != "W"}},
        {**record, "dealer": "X"},
    ]))
    with pytest.raises(InvalidHand):
        rules.play(state, broken)
    assert state.as_dict() == before
    assert dict(state.extras["bags"]) == before["bags"]


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_a_hand_after_the_game_is_won_is_refused(data):
    options = data.draw(options_strategy) | {"target": 50}
    rules, state = data.draw(game(options, max_hands=10))
    # Bids made exactly: every side gains each hand, and one side more than the others, so the game ends.
    made_exactly = hand([3, 3, 4, 3], [3, 3, 4, 3])
    while not state.finished:
        state = rules.play(state, made_exactly)
    assert state.winner == max(state.totals, key=state.totals.get)
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, data.draw(valid_hand(options)))
    assert refused.value.field is None
    assert refused.value.number == state.next_number
    assert "the game is already over" in refused.value.message

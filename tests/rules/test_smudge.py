"""Smudge: focused tests named for the rule they show, and hypothesis properties.

The worked score sheets (every example in docs/rules/smudge.md) are in
``cases/smudge.json``; these tests cover what a score sheet cannot show well: option
specs, resumed games, and invariants over many random games.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidHand, InvalidOptions, get_ruleset, next_seat
from games.rules.smudge import Smudge
from tests.rules.examples import examples

SIDES = ("NS", "EW")
SEATS = ("N", "E", "S", "W")


def hand(bidder="N", bid=2, high="NS", low="NS", jack=None, game=None, all_tricks=False, **extra):
    record = {"bidder": bidder, "bid": bid, "high": high, "low": low, "jack": jack, "game": game,
              "all_tricks": all_tricks}
    record.update(extra)
    return record


def side_of(seat):
    return "NS" if seat in ("N", "S") else "EW"


# --- options -------------------------------------------------------------------------------------


def test_options_have_the_rulings_names_and_defaults():
    assert Smudge({}).options == {
        "first_dealer": "N",
        "target": 21,
        "low_goes_to": "captured",
        "win_rule": "bidder_must_make",
        "dealer_can_steal": True,
        "dealer_can_steal_smudge": True,
        "last_hand": None,
    }


def test_every_option_has_a_one_sentence_help():
    for spec in Smudge.option_specs:
        assert spec.help.endswith(".") and spec.help.count(". ") == 0, spec.name


@pytest.mark.parametrize(
    "options, name",
    [
        ({"target": 0}, "target"),
        ({"low_goes_to": "held"}, "low_goes_to"),
        ({"win_rule": "highest"}, "win_rule"),
        ({"dealer_can_steal": "yes"}, "dealer_can_steal"),
        ({"dealer_can_steal_smudge": 1}, "dealer_can_steal_smudge"),
        ({"smudge_value": 10}, "smudge_value"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, name):
    with pytest.raises(InvalidOptions) as refused:
        get_ruleset("smudge", options)
    assert refused.value.field == name


# --- scoring -------------------------------------------------------------------------------------


def test_bid_two_and_take_four_scores_four():
    state = Smudge({}).replay([hand("N", 2, "NS", "NS", "NS", "NS")])
    assert dict(state.totals) == {"NS": 4, "EW": 0}


def test_opponents_capturing_low_score_one():
    state = Smudge({}).replay([hand("N", 2, "NS", "EW", "NS", "NS")])
    assert dict(state.totals) == {"NS": 3, "EW": 1}


def test_set_bidders_lose_the_bid_and_defenders_score_their_points():
    state = Smudge({}).replay([hand("W", 4, "EW", "NS", "EW", "NS")])
    assert dict(state.totals) == {"NS": 2, "EW": -4}


def test_bid_five_and_smudge_are_the_same_bid():
    rules = Smudge({})
    everything = {"high": "EW", "low": "EW", "jack": "EW", "game": "EW", "all_tricks": True}
    as_word = rules.replay([hand("E", "smudge", **everything)]).hands[0]
    as_number = rules.replay([hand("E", 5, **everything)]).hands[0]
    assert as_word.delta == as_number.delta == {"NS": 0, "EW": 5}
    assert as_word.details == as_number.details


def test_bidding_four_and_taking_everything_scores_four_not_five():
    state = Smudge({}).replay([hand("S", 4, "NS", "NS", "NS", "NS", all_tricks=True)])
    assert dict(state.totals) == {"NS": 4, "EW": 0}


def test_smudge_needs_all_six_tricks_as_well_as_all_four_points():
    state = Smudge({}).replay([hand("S", "smudge", "NS", "NS", "NS", "NS", all_tricks=False)])
    assert dict(state.totals) == {"NS": -5, "EW": 0}


def test_smudge_cannot_be_made_without_the_jack_dealt():
    state = Smudge({}).replay([hand("S", "smudge", "NS", "NS", None, "NS", all_tricks=True)])
    assert dict(state.totals) == {"NS": -5, "EW": 0}
    assert state.hands[0].details["made"] is False


def test_low_goes_to_does_not_change_the_arithmetic():
    record = hand("E", 3, "EW", "NS", "EW", "EW")
    captured = Smudge({"low_goes_to": "captured"}).replay([record])
    dealt = Smudge({"low_goes_to": "dealt"}).replay([record])
    assert captured.totals == dealt.totals == {"NS": 1, "EW": 3}


def test_low_goes_to_dealt_lets_the_defenders_have_low_when_the_bidders_took_every_trick():
    record = hand("E", 3, "EW", "NS", "EW", "EW", all_tricks=True)
    with pytest.raises(InvalidHand) as refused:
        Smudge({}).replay([record])
    assert refused.value.field == "all_tricks"
    assert "so it took Low too" in refused.value.message
    assert dict(Smudge({"low_goes_to": "dealt"}).replay([record]).totals) == {"NS": 1, "EW": 3}


def test_details_say_how_the_hand_went_and_are_json_able():
    state = Smudge({"first_dealer": "E"}).replay([hand("E", 3, "EW", "NS", "EW", None, stolen=True)])
    details = dict(state.hands[0].details)
    assert json.loads(json.dumps(details)) == {
        "bidding_side": "EW", "bid": 3, "smudge": False, "made": False,
        "points": {"NS": 1, "EW": 2}, "forced": False, "stolen": True,
    }


# --- bids by the dealer --------------------------------------------------------------------------


def test_forced_bid_may_be_any_bid_by_the_dealer():
    state = Smudge({"first_dealer": "S"}).replay(
        [hand("S", "smudge", "NS", "NS", "NS", "NS", all_tricks=True, forced=True, dealer="S")]
    )
    assert dict(state.totals) == {"NS": 5, "EW": 0}
    assert state.hands[0].details["forced"] is True


def test_forced_bid_by_anyone_but_the_dealer_is_refused():
    with pytest.raises(InvalidHand) as refused:
        Smudge({}).replay([hand("N"), hand("N", forced=True)])
    assert (refused.value.number, refused.value.field) == (2, "bidder")
    assert "E dealt this hand, so the bidder must be E, not N" in refused.value.message


def test_dealer_can_steal_false_refuses_a_stolen_bid():
    record = hand("N", 3, "NS", "NS", "NS", None, stolen=True)
    assert dict(Smudge({}).replay([record]).totals) == {"NS": 3, "EW": 0}
    with pytest.raises(InvalidHand) as refused:
        Smudge({"dealer_can_steal": False}).replay([record])
    assert refused.value.field == "stolen"
    assert "without stealing" in refused.value.message


def test_dealer_can_steal_smudge_false_refuses_only_a_stolen_smudge():
    rules = Smudge({"dealer_can_steal_smudge": False})
    everything = {"high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": True}
    assert dict(rules.replay([hand("N", 4, stolen=True, **everything)]).totals) == {"NS": 4, "EW": 0}
    assert dict(rules.replay([hand("N", "smudge", **everything)]).totals) == {"NS": 5, "EW": 0}
    with pytest.raises(InvalidHand) as refused:
        rules.replay([hand("N", "smudge", stolen=True, **everything)])
    assert refused.value.field == "stolen"
    assert "may not steal a smudge" in refused.value.message


def test_a_bid_cannot_be_both_forced_and_stolen():
    with pytest.raises(InvalidHand) as refused:
        Smudge({}).replay([hand("N", forced=True, stolen=True)])
    assert refused.value.field == "stolen"


# --- winning -------------------------------------------------------------------------------------


def test_source_example_we_win_with_fewer_points_than_they_have():
    rules = Smudge({})
    start = rules.resume(totals={"NS": 18, "EW": 24}, extras=None, hands_played=11)
    state = rules.play(start, hand("S", 3, "NS", "NS", "EW", "NS"))
    assert dict(state.totals) == {"NS": 21, "EW": 25}
    assert state.winner == "NS"


def test_defenders_at_the_target_cannot_win_whatever_their_score():
    rules = Smudge({})
    start = rules.resume(totals={"NS": 40, "EW": 0}, extras=None, hands_played=5)
    state = rules.play(start, hand("E", 2, "NS", "NS", "NS", "NS"))
    assert dict(state.totals) == {"NS": 44, "EW": -2}
    assert not state.finished


def test_set_bidders_over_the_target_do_not_win():
    rules = Smudge({})
    start = rules.resume(totals={"NS": 30, "EW": 0}, extras=None, hands_played=5)
    state = rules.play(start, hand("N", 4, "NS", "NS", "EW", "EW"))
    assert dict(state.totals) == {"NS": 26, "EW": 2}
    assert not state.finished


def test_first_to_target_lets_the_defenders_win():
    rules = Smudge({"win_rule": "first_to_target"})
    start = rules.resume(totals={"NS": 19, "EW": 0}, extras=None, hands_played=5)
    state = rules.play(start, hand("E", 2, "NS", "NS", "EW", "EW"))
    assert state.winner == "NS"


def test_first_to_target_both_at_target_the_bidder_who_made_goes_out_first():
    rules = Smudge({"win_rule": "first_to_target"})
    start = rules.resume(totals={"NS": 20, "EW": 19}, extras=None, hands_played=5)
    state = rules.play(start, hand("E", 2, "NS", "EW", "EW", "EW"))
    assert dict(state.totals) == {"NS": 21, "EW": 22}
    assert state.winner == "EW"


def test_first_to_target_both_at_target_a_set_bidder_loses_to_the_defenders():
    # Only a resumed game can get here: the set bidder was already at the target before the hand.
    rules = Smudge({"win_rule": "first_to_target"})
    start = rules.resume(totals={"NS": 20, "EW": 30}, extras=None, hands_played=5)
    state = rules.play(start, hand("E", 4, "NS", "NS", "EW", "EW"))
    assert dict(state.totals) == {"NS": 22, "EW": 26}
    assert state.winner == "NS"


@pytest.mark.parametrize("bidder", ["N", "E"])
def test_first_to_target_both_at_target_after_the_bidders_were_set_the_defenders_win(bidder):
    # Only a resumed game can get here: the set bidders were already at the target before the hand.
    rules = Smudge({"win_rule": "first_to_target"})
    bidders, defenders = side_of(bidder), "EW" if side_of(bidder) == "NS" else "NS"
    start = rules.resume(totals={bidders: 30, defenders: 20}, extras=None, hands_played=5)
    state = rules.play(start, hand(bidder, 4, bidders, defenders, defenders, defenders))
    assert dict(state.totals) == {bidders: 26, defenders: 23}
    assert state.winner == defenders


def test_all_six_tricks_with_no_jack_dealt_still_means_the_bidders_took_game():
    record = hand("N", 3, "NS", "NS", None, "EW", all_tricks=True)
    with pytest.raises(InvalidHand) as refused:
        Smudge({}).replay([record])
    assert (refused.value.field, refused.value.message) == (
        "all_tricks", "the bidding side took all six tricks, so it took Game too (every card counted for game was "
        "in its tricks); but game is recorded for EW")


def test_target_option_changes_when_the_game_ends():
    record = hand("N", 4, "NS", "NS", "NS", "NS")
    assert Smudge({"target": 4}).replay([record]).winner == "NS"
    assert Smudge({}).replay([record]).winner is None


# --- properties ----------------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {
        "target": st.integers(min_value=1, max_value=30),
        "low_goes_to": st.sampled_from(["captured", "dealt"]),
        "win_rule": st.sampled_from(["bidder_must_make", "first_to_target"]),
        "first_dealer": st.sampled_from(SEATS),
    }
)


@st.composite
def hands(draw):
    """A valid hand, except that a forced or stolen bid's bidder is fixed up by ``dealt_by``."""
    bidder = draw(st.sampled_from(SEATS))
    bidding_side = side_of(bidder)
    record = hand(
        bidder,
        draw(st.sampled_from([2, 3, 4, 5, "smudge"])),
        draw(st.sampled_from(SIDES)),
        draw(st.sampled_from(SIDES)),
        draw(st.sampled_from([*SIDES, None])),
        draw(st.sampled_from([*SIDES, None])),
        draw(st.booleans()),
    )
    if record["all_tricks"]:
        record.update(high=bidding_side, low=bidding_side, game=bidding_side)
        if record["jack"] is not None:
            record["jack"] = bidding_side
    flag = draw(st.sampled_from([None, "forced", "stolen"]))
    if flag:
        record[flag] = True
    return record


def dealt_by(records, first_dealer):
    """The same hands with forced and stolen bids made by the seat whose deal it is."""
    fixed = []
    for number, record in enumerate(records):
        if record.get("forced") or record.get("stolen"):
            record = {**record, "bidder": next_seat(first_dealer, number)}
            if record["all_tricks"]:
                bidding_side = side_of(record["bidder"])
                record.update(high=bidding_side, low=bidding_side, game=bidding_side)
                if record["jack"] is not None:
                    record["jack"] = bidding_side
        fixed.append(record)
    return fixed


def play_until_over(rules, records):
    """Play hands in order until the game is won; return the state and the hands left over."""
    state = rules.initial_state()
    for index, record in enumerate(records):
        if state.finished:
            return state, records[index:]
        state = rules.play(state, record)
    return state, []


@settings(max_examples=examples(200), deadline=None)
@given(OPTIONS, st.lists(hands(), min_size=1, max_size=12))
def test_each_hand_awards_two_to_four_points_and_five_only_for_a_made_smudge(options, records):
    rules = Smudge(options)
    state, _ = play_until_over(rules, dealt_by(records, options["first_dealer"]))
    for scored in state.hands:
        assert 2 <= sum(scored.details["points"].values()) <= 4
        made_smudge = scored.details["smudge"] and scored.details["made"]
        assert (5 in scored.delta.values()) == made_smudge
        if made_smudge:
            assert scored.details["points"][scored.details["bidding_side"]] == 4


@settings(max_examples=examples(200), deadline=None)
@given(OPTIONS, st.lists(hands(), min_size=1, max_size=12))
def test_replaying_equals_summing_the_deltas(options, records):
    rules = Smudge(options)
    state, _ = play_until_over(rules, dealt_by(records, options["first_dealer"]))
    running = {"NS": 0, "EW": 0}
    for scored in state.hands:
        running = {side: running[side] + scored.delta[side] for side in SIDES}
        assert dict(scored.totals) == running
    assert dict(state.totals) == running
    assert rules.replay([scored.record for scored in state.hands]) == state


@settings(max_examples=examples(200), deadline=None)
@given(OPTIONS, st.lists(hands(), min_size=1, max_size=12))
def test_no_hand_is_accepted_after_the_game_is_won(options, records):
    rules = Smudge(options)
    state, left_over = play_until_over(rules, dealt_by(records, options["first_dealer"]))
    for record in left_over:
        with pytest.raises(InvalidHand) as refused:
            rules.play(state, record)
        assert refused.value.field is None
        assert "already over" in refused.value.message
    if state.finished:
        assert state.winner in SIDES


BAD_FIELDS = st.sampled_from(
    [
        ("bid", 6),
        ("bid", "five"),
        ("bidder", "X"),
        ("high", None),
        ("low", "N"),
        ("jack", "S"),
        ("game", 0),
        ("all_tricks", None),
        ("forced", "yes"),
        ("stolen", 1),
        ("tricks", 6),
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(OPTIONS, st.lists(hands(), max_size=6), hands(), BAD_FIELDS)
def test_a_refused_hand_changes_nothing(options, records, good, bad):
    rules = Smudge({**options, "target": 1000})
    records = dealt_by([*records, good], options["first_dealer"])
    *before, good = records
    state = rules.replay(before)
    snapshot = state.as_dict()
    field, value = bad
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, {**good, field: value})
    assert refused.value.field == field
    assert refused.value.number == len(before) + 1
    assert state.as_dict() == snapshot
    assert rules.play(state, good) == rules.replay(records)

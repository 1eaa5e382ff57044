"""Trumps: one test per rule and example, plus properties that hold for any hand.

Worked score sheets are in ``cases/trumps.json``; these tests name the rule they show.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidHand, InvalidOptions, get_ruleset
from games.rules.base import SEATS
from games.rules.trumps import BID_VALUES, TRUMP_CHOICES, Trumps, contract_value
from tests.rules.examples import examples


def hand(declarer="N", bid=7, trump="hearts", tricks=7, doubled=False, redoubled=False, **extra):
    return {"declarer": declarer, "bid": bid, "trump": trump, "doubled": doubled,
            "redoubled": redoubled, "tricks": tricks, **extra}


def deltas(record, **options):
    state = Trumps(options).replay([record])
    return dict(state.hands[0].delta)


# --- the examples in docs/rules/trumps.md ----------------------------------------------------------


def test_made_seven_hearts_with_eight_tricks_scores_six():
    assert deltas(hand("N", 7, "hearts", 8)) == {"NS": 6, "EW": 0}


def test_thirteen_notrump_made_scores_150():
    assert deltas(hand("E", 13, "notrump", 13)) == {"NS": 0, "EW": 150}


def test_set_by_two_doubled_gives_defenders_twenty():
    assert deltas(hand("N", 9, "spades", 7, doubled=True)) == {"NS": 0, "EW": 20}


# --- contract values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "value"),
    [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 5), (8, 10), (9, 15), (10, 20), (11, 30), (12, 50),
     (13, 100)],
)
def test_bid_values_follow_the_table(bid, value):
    assert deltas(hand("N", bid, "clubs", bid), target=1000) == {"NS": value, "EW": 0}


@pytest.mark.parametrize("bid", range(1, 13))
def test_notrump_scores_as_one_bid_higher(bid):
    assert contract_value(bid, True) == BID_VALUES[bid + 1]
    assert deltas(hand("S", bid, "notrump", bid), target=1000)["NS"] == BID_VALUES[bid + 1]


def test_notrump_needs_only_the_tricks_bid():
    # 6 no trump is worth 5 (as a 7), yet 6 tricks make it and the 7th is an overtrick.
    state = Trumps({}).replay([hand("N", 6, "notrump", 7)])
    assert dict(state.totals) == {"NS": 6, "EW": 0}
    assert state.hands[0].details["overtricks"] == 1


def test_notrump_set_is_counted_from_the_bid():
    assert deltas(hand("N", 6, "notrump", 5)) == {"NS": 0, "EW": 5}


# --- made and set ---------------------------------------------------------------------------------


def test_each_overtrick_scores_one():
    assert deltas(hand("W", 4, "diamonds", 9)) == {"NS": 0, "EW": 2 + 5}


def test_set_gives_defenders_five_per_trick_short_and_declarers_nothing():
    assert deltas(hand("N", 10, "hearts", 6)) == {"NS": 0, "EW": 20}


def test_the_declarers_partner_scores_for_the_same_side():
    assert deltas(hand("S", 7, "hearts", 8)) == deltas(hand("N", 7, "hearts", 8))


# --- doubles --------------------------------------------------------------------------------------


def test_double_doubles_value_and_overtricks():
    assert deltas(hand("N", 8, "clubs", 10, doubled=True)) == {"NS": 24, "EW": 0}


def test_redouble_quadruples_a_made_contract():
    assert deltas(hand("N", 8, "clubs", 9, doubled=True, redoubled=True)) == {"NS": 44, "EW": 0}


def test_redouble_quadruples_the_set_penalty():
    assert deltas(hand("E", 10, "diamonds", 7, doubled=True, redoubled=True)) == {"NS": 60, "EW": 0}


def test_double_scope_contract_only_leaves_overtricks_single():
    record = hand("N", 8, "clubs", 10, doubled=True)
    assert deltas(record, double_scope="all") == {"NS": 24, "EW": 0}
    assert deltas(record, double_scope="contract_only") == {"NS": 22, "EW": 0}


def test_double_scope_contract_only_doubles_the_set_penalty():
    record = hand("N", 9, "spades", 7, doubled=True)
    assert deltas(record, double_scope="all") == {"NS": 0, "EW": 20}
    assert deltas(record, double_scope="contract_only") == {"NS": 0, "EW": 20}


def test_double_scope_contract_only_quadruples_a_redoubled_set_penalty():
    record = hand("N", 9, "spades", 7, doubled=True, redoubled=True)
    assert deltas(record, double_scope="all") == {"NS": 0, "EW": 40}
    assert deltas(record, double_scope="contract_only") == {"NS": 0, "EW": 40}


def test_double_scope_contract_only_still_multiplies_the_notrump_value():
    record = hand("S", 7, "notrump", 9, doubled=True, redoubled=True)
    assert deltas(record, double_scope="contract_only") == {"NS": 10 * 4 + 2, "EW": 0}


def test_details_describe_the_hand():
    state = Trumps({}).replay([hand("W", 9, "notrump", 8, doubled=True)])
    assert dict(state.hands[0].details) == {
        "declaring_side": "EW",
        "contract_value": 20,
        "made": False,
        "overtricks": 0,
        "short": 1,
        "multiplier": 2,
        "doubled": True,
        "redoubled": False,
        "notrump": True,
    }


# --- winning --------------------------------------------------------------------------------------


def test_first_side_to_reach_the_target_wins():
    state = Trumps({}).replay([hand("N", 10, "spades", 10), hand("E", 11, "hearts", 11),
                               hand("S", 10, "spades", 11)])
    assert dict(state.totals) == {"NS": 41, "EW": 30}
    assert not state.finished
    state = Trumps({}).play(state, hand("W", 9, "clubs", 10))
    assert dict(state.totals) == {"NS": 41, "EW": 46}
    state = Trumps({}).play(state, hand("N", 4, "clubs", 13))
    assert (state.finished, state.winner, dict(state.totals)) == (True, "NS", {"NS": 52, "EW": 46})


def test_target_option_changes_when_the_game_ends():
    records = [hand("N", 8, "hearts", 8)]
    assert not Trumps({}).replay(records).finished
    assert Trumps({"target": 10}).replay(records).winner == "NS"


def test_no_hand_is_accepted_after_the_game_is_won():
    state = Trumps({}).replay([hand("N", 13, "notrump", 13)])
    with pytest.raises(InvalidHand) as refused:
        Trumps({}).play(state, hand("E"))
    assert refused.value.number == 2
    assert "already over" in refused.value.message


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"declarer": "X"}, "declarer", "declarer must be one of N, E, S, W"),
        ({"declarer": None}, "declarer", "declarer must be one of"),
        ({"bid": 0}, "bid", "from 1 to 13"),
        ({"bid": 14}, "bid", "from 1 to 13"),
        ({"bid": "7"}, "bid", "bid must be a whole number"),
        ({"bid": True}, "bid", "bid must be a whole number"),
        ({"bid": 7.0}, "bid", "bid must be a whole number"),
        ({"trump": "Hearts"}, "trump", "clubs, diamonds, hearts, spades, notrump"),
        ({"trump": None}, "trump", "trump must be one of"),
        ({"tricks": -1}, "tricks", "from 0 to 13"),
        ({"tricks": 14}, "tricks", "from 0 to 13"),
        ({"tricks": False}, "tricks", "tricks must be a whole number"),
        ({"doubled": 1}, "doubled", "doubled must be true or false"),
        ({"redoubled": "no"}, "redoubled", "redoubled must be true or false"),
        ({"redoubled": True}, "redoubled", "a hand can only be redoubled after a double"),
        ({"contract": "7H"}, "contract", 'unknown field "contract"'),
        ({"note": 3}, "note", "a note must be text"),
        ({"dealer": "E"}, "dealer", "it is N's deal, not E's"),
        ({"bid": "7"}, "bid", 'bid must be a whole number from 1 to 13, not "7"'),
        ({"tricks": None}, "tricks", "tricks must be a whole number from 0 to 13, not null"),
        ({"doubled": None}, "doubled", "doubled must be true or false, not null"),
        ({"trump": True}, "trump", "trump must be one of clubs, diamonds, hearts, spades, notrump, not true"),
    ],
)
def test_refused_hands_name_the_field(changes, field, words):
    with pytest.raises(InvalidHand) as refused:
        Trumps({}).replay([hand(**changes)])
    assert refused.value.number == 1
    assert refused.value.field == field
    assert words in refused.value.message


@pytest.mark.parametrize("missing", ["declarer", "bid", "trump", "doubled", "redoubled", "tricks"])
def test_every_field_is_required(missing):
    record = hand()
    del record[missing]
    with pytest.raises(InvalidHand) as refused:
        Trumps({}).replay([record])
    assert (refused.value.field, refused.value.message) == (missing, f"{missing} is missing")


def test_dealer_and_note_are_accepted():
    state = Trumps({"first_dealer": "W"}).replay([hand(dealer="W", note="close one")])
    assert state.next_dealer == "N"


@pytest.mark.parametrize(
    "options",
    [{"target": 0}, {"target": "50"}, {"double_scope": "overtricks"}, {"match_tiebreak": "coin"},
     {"trump_bonus": 1}],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        get_ruleset("trumps", options)


def test_options_have_plain_words_help():
    for spec in Trumps.option_specs:
        assert spec.help.endswith(".")
    assert {spec.name: spec.default for spec in Trumps.option_specs} == {
        "target": 50, "double_scope": "all", "match_tiebreak": "none"}


# --- properties -----------------------------------------------------------------------------------


@st.composite
def records(draw):
    doubled = draw(st.booleans())
    return hand(
        declarer=draw(st.sampled_from(SEATS)),
        bid=draw(st.integers(1, 13)),
        trump=draw(st.sampled_from(TRUMP_CHOICES)),
        tricks=draw(st.integers(0, 13)),
        doubled=doubled,
        redoubled=doubled and draw(st.booleans()),
    )


option_sets = st.fixed_dictionaries(
    {"double_scope": st.sampled_from(["all", "contract_only"])},
    optional={"target": st.integers(1, 300), "first_dealer": st.sampled_from(SEATS)},
)


@settings(max_examples=examples(200), deadline=None)
@given(options=option_sets, record=records())
def test_exactly_one_side_scores_on_every_hand(options, record):
    delta = deltas(record, **options)
    scoring = [side for side, points in delta.items() if points]
    assert len(scoring) == 1
    assert delta[scoring[0]] > 0
    declaring = "NS" if record["declarer"] in "NS" else "EW"
    assert (scoring[0] == declaring) == (record["tricks"] >= record["bid"])


@settings(max_examples=examples(200), deadline=None)
@given(record=records())
def test_contract_only_differs_from_all_only_in_the_overtricks(record):
    # Both scopes multiply the contract's value and the set penalty; only "all" multiplies overtricks.
    whole = deltas(record, double_scope="all", target=1000)
    contract_only = deltas(record, double_scope="contract_only", target=1000)
    multiplier = 4 if record["redoubled"] else 2 if record["doubled"] else 1
    overtricks = max(0, record["tricks"] - record["bid"])
    side = next(side for side, points in whole.items() if points)
    assert contract_only == {**whole, side: whole[side] - overtricks * (multiplier - 1)}


@settings(max_examples=examples(200), deadline=None)
@given(options=option_sets, hands=st.lists(records(), max_size=12))
def test_replaying_equals_summing_the_deltas(options, hands):
    rules = Trumps(options)
    state = rules.initial_state()
    for record in hands:
        if state.finished:
            break
        state = rules.play(state, record)
    played = [scored.record for scored in state.hands]
    assert rules.replay(played) == state
    for side in ("NS", "EW"):
        assert state.totals[side] == sum(scored.delta[side] for scored in state.hands)
    # Only one side scores per hand, so the game ends the moment a side reaches the target.
    reached = [side for side, total in state.totals.items() if total >= rules.target]
    assert state.finished == bool(reached)
    assert reached == ([state.winner] if state.finished else [])
    assert all(max(scored.totals.values()) < rules.target for scored in state.hands[:-1])


@settings(max_examples=examples(200), deadline=None)
@given(
    hands=st.lists(records(), max_size=6),
    bad=st.sampled_from([{"bid": 0}, {"tricks": 14}, {"trump": "nt"}, {"redoubled": True, "doubled": False},
                         {"declarer": "NS"}, {"extra": 1}]),
)
def test_a_refused_hand_changes_nothing(hands, bad):
    # Out of reach in six hands (13 no trump redoubled, the most a hand scores, is 600), so the game is
    # still going when the bad hand comes.
    rules = Trumps({"target": 10_000})
    state = rules.replay(hands)
    before = rules.replay(hands)
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, {**hand(), **bad})
    assert refused.value.number == len(hands) + 1
    assert state == before
    assert rules.replay(hands) == before


@settings(max_examples=examples(200), deadline=None)
@given(finishing=records(), later=records())
def test_no_hand_is_accepted_after_the_game_is_won_whatever_it_is(finishing, later):
    rules = Trumps({"target": 1})  # every hand scores at least 1, so the first hand ends the game
    state = rules.replay([finishing])
    assert state.finished
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, later)
    assert refused.value.number == 2
    assert refused.value.field is None

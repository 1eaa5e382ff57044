"""Thieving Stink: face cards and the trump stack, and the invariants every hand keeps."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidHand, get_ruleset
from tests.rules.examples import examples

SEATS = ("N", "E", "S", "W")


@st.composite
def valid_hands(draw):
    """Any hand the rules allow: a stack of 4..16, and every face card not in it won in a trick."""
    size = draw(st.integers(4, 16))
    won = draw(st.integers(max(0, 16 - size), 16))
    ns = draw(st.integers(0, won))
    return {"face_cards": {"NS": ns, "EW": won - ns},
            "trump_stack": {"holder": draw(st.sampled_from(SEATS)), "size": size}}


def stink(ns: int, ew: int, holder: str = "N", size: int = 4, **extra) -> dict:
    return {"face_cards": {"NS": ns, "EW": ew}, "trump_stack": {"holder": holder, "size": size}, **extra}


RULES = get_ruleset("thieving_stink", {"target": 10**6})


@settings(max_examples=examples(300))
@given(valid_hands())
def test_every_hand_is_worth_a_multiple_of_5_from_80_to_240(hand):
    delta = RULES.play(RULES.initial_state(), hand).hands[-1].delta
    total = delta["NS"] + delta["EW"]
    assert total % 5 == 0 and 80 <= total <= 240


@settings(max_examples=examples(300))
@given(valid_hands())
def test_the_stack_scores_for_its_holders_side_only(hand):
    delta = RULES.play(RULES.initial_state(), hand).hands[-1].delta
    holder_side = "NS" if hand["trump_stack"]["holder"] in ("N", "S") else "EW"
    other = "EW" if holder_side == "NS" else "NS"
    assert delta[other] == 10 * hand["face_cards"][other]
    assert delta[holder_side] == 10 * hand["face_cards"][holder_side] + 5 * hand["trump_stack"]["size"]


@settings(max_examples=examples(100))
@given(st.lists(valid_hands(), min_size=1, max_size=12))
def test_replaying_a_game_equals_summing_its_deltas(hands):
    state = get_ruleset("thieving_stink", {"target": 10**6}).replay(hands)
    for side in ("NS", "EW"):
        assert state.totals[side] == sum(hand.delta[side] for hand in state.hands)
    assert [hand.dealer for hand in state.hands] == [SEATS[n % 4] for n in range(len(hands))]


@settings(max_examples=examples(100))
@given(st.lists(valid_hands(), min_size=1, max_size=6), st.integers(17, 40))
def test_a_refused_hand_changes_nothing(hands, too_many):
    state = RULES.replay(hands)
    before = (dict(state.totals), state.hands_played, state.next_dealer, state.hands)
    with pytest.raises(InvalidHand) as refused:
        RULES.play(state, stink(too_many, 0))
    assert refused.value.number == len(hands) + 1
    assert (dict(state.totals), state.hands_played, state.next_dealer, state.hands) == before


@settings(max_examples=examples(100))
@given(st.lists(valid_hands(), min_size=1, max_size=30))
def test_no_hand_is_accepted_once_the_game_is_won(hands):
    rules = get_ruleset("thieving_stink", {"target": 300})
    state = rules.initial_state()
    for hand in hands:
        if state.finished:
            with pytest.raises(InvalidHand, match="already over"):
                rules.play(state, hand)
            return
        state = rules.play(state, hand)
        if state.finished:
            assert max(state.totals.values()) >= 300 and state.winner in ("NS", "EW")


@pytest.mark.parametrize(
    ("record", "field", "words"),
    [
        ({"face_cards": {"NS": 8}, "trump_stack": {"holder": "N", "size": 4}}, "face_cards", "for NS and for EW"),
        ({"face_cards": {"NS": 8, "EW": "8"}, "trump_stack": {"holder": "N", "size": 4}}, "face_cards.EW",
         'face_cards.EW must be a whole number from 0 to 16, not "8"'),
        ({"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N"}}, "trump_stack", "a holder"),
        ({"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "NS", "size": 4}}, "trump_stack.holder",
         'trump_stack.holder must be one of N, E, S, W, not "NS"'),
        ({"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 17}}, "trump_stack.size",
         "from 4 to 16"),
        ({"face_cards": {"NS": 8, "EW": 8}}, "trump_stack", "trump_stack is missing"),
        (stink(8, 8, note=5), "note", "a note must be text"),
        (stink(8, 8, trumps="spades"), "trumps", 'unknown field "trumps"'),
    ],
)
def test_malformed_hands_are_refused_naming_the_field(record, field, words):
    with pytest.raises(InvalidHand) as refused:
        RULES.play(RULES.initial_state(), record)
    assert refused.value.field == field
    assert words in refused.value.message


def test_a_note_and_the_lead_are_kept_but_score_nothing():
    plain = RULES.play(RULES.initial_state(), stink(8, 8, size=5))
    noted = RULES.play(RULES.initial_state(), stink(8, 8, size=5, note="Ann stole it twice", lead="E"))
    assert noted.totals == plain.totals
    assert noted.hands[-1].record["note"] == "Ann stole it twice"


# --- the stack of four: nobody changed trump ---------------------------------------------------------------


@pytest.mark.parametrize("holder", ["N", "E", "S"])
def test_a_stack_of_four_held_by_anyone_but_the_lead_is_refused_naming_the_holder(holder):
    state = RULES.replay([stink(8, 8, size=6)])
    with pytest.raises(InvalidHand) as refused:
        RULES.play(state, stink(8, 8, holder=holder, size=4, lead="W"))
    assert (refused.value.number, refused.value.field) == (2, "trump_stack.holder")
    assert str(refused.value) == (
        "hand 2: a stack of 4 means nobody changed trump, so it is still in front of W, who won the bid and "
        f"led first; it can't be held by {holder}")


@pytest.mark.parametrize("lead", SEATS)
def test_a_stack_of_four_lies_in_front_of_the_lead(lead):
    state = RULES.play(RULES.initial_state(), stink(8, 8, holder=lead, size=4, lead=lead))
    assert state.hands[-1].details["trump_stack_holder"] == lead


@pytest.mark.parametrize("size", [5, 16])
def test_a_stack_that_changed_hands_may_be_held_by_anyone(size):
    state = RULES.play(RULES.initial_state(), stink(8, 8, holder="N", size=size, lead="E"))
    assert state.hands[-1].details["trump_stack_holder"] == "N"


def test_without_the_lead_the_holder_of_a_stack_of_four_is_taken_to_be_the_lead():
    state = RULES.play(RULES.initial_state(), stink(8, 8, holder="S", size=4))
    assert state.hands[-1].details["trump_stack_holder"] == "S"


def test_a_game_started_before_rules_version_3_still_takes_its_stored_hands():
    record = stink(8, 8, holder="N", size=4, lead="E")
    for version in (1, 2):
        state = get_ruleset("thieving_stink", {}, rules_version=version).replay([record])
        assert dict(state.totals) == {"NS": 100, "EW": 80}
    with pytest.raises(InvalidHand):
        get_ruleset("thieving_stink", {}, rules_version=3).replay([record])


@pytest.mark.parametrize(("record", "field", "message"), [
    ({"face_cards": {"NS": 8}, "trump_stack": {"holder": "N", "size": 4}}, "face_cards",
     "face_cards needs a count for NS and for EW"),
    ({"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N"}}, "trump_stack",
     "trump_stack needs a holder (a seat) and a size"),
    ({"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "X", "size": 4}}, "trump_stack.holder",
     'trump_stack.holder must be one of N, E, S, W, not "X"'),
])
def test_a_second_hand_of_the_wrong_shape_is_refused_by_its_number(record, field, message):
    with pytest.raises(InvalidHand) as refused:
        RULES.replay([stink(8, 8), record])
    assert (refused.value.number, refused.value.field, refused.value.message) == (2, field, message)


def test_a_side_that_reaches_the_target_exactly_wins():
    rules = get_ruleset("thieving_stink")
    start = rules.resume(totals={"NS": 440, "EW": 100}, extras=None, hands_played=4)
    state = rules.play(start, {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}})
    assert (dict(state.totals), state.finished, state.winner) == ({"NS": 500, "EW": 205}, True, "NS")

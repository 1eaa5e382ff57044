"""Thieving Stink: face cards and the trump stack, and the invariants every hand keeps."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidHand, get_ruleset

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


@settings(max_examples=300)
@given(valid_hands())
def test_every_hand_is_worth_a_multiple_of_5_from_80_to_240(hand):
    delta = RULES.play(RULES.initial_state(), hand).hands[-1].delta
    total = delta["NS"] + delta["EW"]
    assert total % 5 == 0 and 80 <= total <= 240


@settings(max_examples=300)
@given(valid_hands())
def test_the_stack_scores_for_its_holders_side_only(hand):
    delta = RULES.play(RULES.initial_state(), hand).hands[-1].delta
    holder_side = "NS" if hand["trump_stack"]["holder"] in ("N", "S") else "EW"
    other = "EW" if holder_side == "NS" else "NS"
    assert delta[other] == 10 * hand["face_cards"][other]
    assert delta[holder_side] == 10 * hand["face_cards"][holder_side] + 5 * hand["trump_stack"]["size"]


@settings(max_examples=100)
@given(st.lists(valid_hands(), min_size=1, max_size=12))
def test_replaying_a_game_equals_summing_its_deltas(hands):
    state = get_ruleset("thieving_stink", {"target": 10**6}).replay(hands)
    for side in ("NS", "EW"):
        assert state.totals[side] == sum(hand.delta[side] for hand in state.hands)
    assert [hand.dealer for hand in state.hands] == [SEATS[n % 4] for n in range(len(hands))]


@settings(max_examples=100)
@given(st.lists(valid_hands(), min_size=1, max_size=6), st.integers(17, 40))
def test_a_refused_hand_changes_nothing(hands, too_many):
    state = RULES.replay(hands)
    before = (dict(state.totals), state.hands_played, state.next_dealer, state.hands)
    with pytest.raises(InvalidHand) as refused:
        RULES.play(state, stink(too_many, 0))
    assert refused.value.number == len(hands) + 1
    assert (dict(state.totals), state.hands_played, state.next_dealer, state.hands) == before


@settings(max_examples=100)
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
    plain = RULES.play(RULES.initial_state(), stink(8, 8))
    noted = RULES.play(RULES.initial_state(), stink(8, 8, note="Ann stole it twice", lead="E"))
    assert noted.totals == plain.totals
    assert noted.hands[-1].record["note"] == "Ann stole it twice"

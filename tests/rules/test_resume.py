"""A game picked up from its stored totals (``Ruleset.resume``) goes on exactly as if it had been replayed."""

from __future__ import annotations

import pytest

from games.rules import InvalidHand, get_ruleset
from games.rules.base import HandScore, ScoredHand, next_seat
from games.rules.thieving_stink import ThievingStink

# NS bid 6 and take 8: two bags; EW bid 7 and take 5: set.
SPADES_HAND = {"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 4, "W": 2}}


def test_a_resumed_game_deals_and_numbers_on_from_the_hands_played():
    rules = get_ruleset("spades", {"first_dealer": "S"})
    state = rules.resume(totals={"NS": 180, "EW": 95}, extras={"bags": {"NS": 8, "EW": 1}}, hands_played=5)
    assert (dict(state.totals), state.next_dealer, state.hands_played, state.next_number) == (
        {"NS": 180, "EW": 95}, "W", 5, 6)
    assert (state.finished, state.winner, state.hands) == (False, None, ())
    after = rules.play(state, SPADES_HAND)
    assert after.hands[-1].number == 6 and after.hands[-1].dealer == "W"
    # The two bags bring NS's stored eight to ten: 62 less the bag penalty of 100.
    assert dict(after.totals) == {"NS": 142, "EW": 25}
    assert dict(after.extras["bags"]) == {"NS": 0, "EW": 1}


def test_a_side_missing_from_the_stored_totals_starts_at_nothing():
    state = get_ruleset("smudge").resume(totals={"EW": 7}, extras=None, hands_played=3)
    assert dict(state.totals) == {"NS": 0, "EW": 7}


def test_a_resumed_game_without_stored_extras_starts_them_afresh():
    state = get_ruleset("spades").resume(totals={"NS": 60, "EW": 40}, extras=None, hands_played=1)
    assert {name: dict(values) for name, values in state.extras.items()} == {"bags": {"NS": 0, "EW": 0}}


def test_a_game_resumed_as_won_stays_won():
    rules = get_ruleset("trumps")
    state = rules.resume(totals={"NS": 51, "EW": 20}, extras=None, hands_played=9, finished=True, winner="NS")
    assert (state.finished, state.winner) == (True, "NS")
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, rules.record_example)
    assert (refused.value.number, refused.value.message) == (
        10, "the game is already over: NS won; no more hands can be added")


def test_a_resumed_game_deals_from_the_seat_its_hands_played_reach():
    state = get_ruleset("smudge", {"first_dealer": "N"}).resume(totals={}, extras=None, hands_played=2)
    assert state.next_dealer == "S"


def test_a_game_state_reads_as_data_with_its_totals_and_how_it_ended():
    rules = get_ruleset("trumps")
    state = rules.replay([{"declarer": "E", "bid": 13, "trump": "notrump", "doubled": False, "redoubled": False,
                           "tricks": 13}])
    data = state.as_dict()
    assert (data["totals"], data["finished"], data["winner"], data["next_dealer"]) == (
        {"NS": 0, "EW": 150}, True, "EW", "E")
    assert data["hands"] == [{"number": 1, "dealer": "N", "delta": {"NS": 0, "EW": 150}, "totals": {"NS": 0, "EW": 150}}]


def test_the_deal_passes_one_seat_to_the_left():
    assert [next_seat(seat) for seat in ("N", "E", "S", "W")] == ["E", "S", "W", "N"]
    assert next_seat("W", 2) == "E"


def test_one_step_scores_a_hand_and_leaves_the_states_hands_as_they_were():
    rules = get_ruleset("thieving_stink")
    before = rules.replay([rules.record_example])
    hand, after = rules.step(before, rules.record_example)
    assert (hand.number, after.hands_played) == (2, 2)
    assert after.hands == before.hands and len(after.hands) == 1


def test_a_hand_built_without_extras_or_details_has_none():
    # How the pages rebuild a stored hand of a game that keeps no extras (Smudge, Trumps, Thieving Stink).
    hand = ScoredHand(3, "E", {"note": "x"}, {"NS": 5, "EW": 0}, {"NS": 12, "EW": 9})
    assert (dict(hand.extras), dict(hand.details)) == ({}, {})
    assert hand.as_dict() == {"number": 3, "dealer": "E", "delta": {"NS": 5, "EW": 0}, "totals": {"NS": 12, "EW": 9}}
    score = HandScore({"NS": 5})
    assert (dict(score.extras), dict(score.details)) == ({}, {})


def test_a_game_that_ties_its_options_together_sees_every_option_with_its_defaults():
    seen = []

    class Tied(ThievingStink):
        @classmethod
        def check_options(cls, options):
            seen.append(dict(options))

    Tied({"target": 300})
    assert seen == [{"first_dealer": "N", "target": 300, "last_hand": None}]

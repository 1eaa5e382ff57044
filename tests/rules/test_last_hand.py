"""A game of a fixed number of hands (the ``last_hand`` option every game has, docs/rules.md): after the last hand
the side ahead wins and sides level at the top draw; a side that wins by the game's own rules before then wins as
always."""

from __future__ import annotations

import pytest

from games.rules import InvalidHand, InvalidOptions, Ruleset, get_ruleset

# Thieving Stink scores face cards 10 apiece and 5 a card of the trump stack to its holder's side: easy sums.
NS_AHEAD = {"face_cards": {"NS": 8, "EW": 5}, "trump_stack": {"holder": "N", "size": 4}}  # NS 80 + 20, EW 50
EW_AHEAD = {"face_cards": {"NS": 5, "EW": 8}, "trump_stack": {"holder": "E", "size": 4}}  # NS 50, EW 80 + 20
LEVEL = {"face_cards": {"NS": 6, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}}     # NS 60 + 20, EW 80


def stink(**options):
    return get_ruleset("thieving_stink", {"target": 1000, **options})


def test_the_game_ends_after_its_last_hand_won_by_the_side_ahead():
    state = stink(last_hand=3).replay([NS_AHEAD, EW_AHEAD, EW_AHEAD])
    assert dict(state.totals) == {"NS": 200, "EW": 250}
    assert (state.finished, state.winner, state.hands_played) == (True, "EW", 3)


def test_the_hands_before_the_last_leave_the_game_going():
    state = stink(last_hand=3).replay([NS_AHEAD, EW_AHEAD])
    assert (state.finished, state.winner) == (False, None)


def test_sides_level_after_the_last_hand_draw_and_the_game_takes_no_more_hands():
    rules = stink(last_hand=1)
    state = rules.replay([LEVEL])
    assert dict(state.totals) == {"NS": 80, "EW": 80}
    assert (state.finished, state.winner) == (True, None)
    with pytest.raises(InvalidHand) as refused:
        rules.play(state, NS_AHEAD)
    assert (refused.value.number, refused.value.message) == (
        2, "the game is already over: a draw; no more hands can be added")


def test_a_side_reaching_the_target_before_the_last_hand_wins_then():
    state = stink(target=100, last_hand=8).replay([EW_AHEAD])
    assert (state.finished, state.winner, state.hands_played) == (True, "EW", 1)


def test_the_games_own_rule_decides_the_last_hand_when_it_names_a_winner():
    # Smudge: NS reach 3 but, bidding and making, they win; after the last hand that is the game's own ending.
    rules = get_ruleset("smudge", {"target": 3, "last_hand": 1})
    state = rules.replay([{"bidder": "N", "bid": 3, "high": "NS", "low": "NS", "jack": "NS", "game": "EW",
                           "all_tricks": False}])
    assert (state.finished, state.winner) == (True, "NS")


def test_a_game_picked_up_past_its_last_hand_ends_with_the_next_one():
    # A time limit sets the last hand to the hand in play; a game resumed beyond it ends with its next hand.
    rules = stink(last_hand=2)
    state = rules.play(rules.resume(totals={"NS": 100, "EW": 50}, extras=None, hands_played=4), LEVEL)
    assert (state.finished, state.winner, state.hands_played) == (True, "NS", 5)


def test_cutthroat_the_one_player_alone_at_the_top_wins():
    rules = get_ruleset("spades", {"partnerships": False, "last_hand": 1})
    state = rules.replay([{"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}])
    assert dict(state.totals) == {"N": 30, "E": 40, "S": 30, "W": 30}
    assert (state.finished, state.winner) == (True, "E")


def test_in_a_game_where_the_lowest_total_wins_the_lowest_is_ahead():
    class Penalties(Ruleset):
        lower_wins = True

    assert Penalties.sole_best({"N": 12, "E": 3, "S": 40, "W": 7}) == "E"
    assert Penalties.sole_best({"N": 3, "E": 3, "S": 40, "W": 7}) is None
    assert Ruleset.sole_best({"NS": 3, "EW": 40}) == "EW"


def test_only_a_game_of_a_fixed_number_of_hands_can_draw():
    assert stink(last_hand=8).can_draw and not stink().can_draw


@pytest.mark.parametrize("value", [0, -1, "8", 2.5, True])
def test_the_last_hand_is_a_whole_number_from_one(value):
    with pytest.raises(InvalidOptions) as refused:
        stink(last_hand=value)
    assert refused.value.field == "last_hand"
    assert refused.value.message.startswith("last_hand must be a whole number from 1 to 1,000,000 (or null), not ")


def needs_now(rules, hands_played, **resumed):
    state = rules.resume(totals={"NS": 120, "EW": 80}, extras=None, hands_played=hands_played, **resumed)
    return rules.needs_now(state).text


def test_under_the_totals_the_hands_left_come_first():
    assert needs_now(stink(target=500, last_hand=8), 5) == (
        "3 hands left: the side ahead after hand 8 wins; NS need 380 to reach 500; EW need 420 to reach 500")


def test_the_last_hand_is_announced_as_the_last():
    assert needs_now(stink(target=500, last_hand=8), 7).startswith(
        "This is the last hand: the side ahead after it wins, and sides level draw; NS need 380")


def test_a_game_played_to_its_target_says_only_what_each_side_needs():
    assert needs_now(stink(target=500), 7) == "NS need 380 to reach 500; EW need 420 to reach 500"


def test_a_finished_game_needs_nothing():
    assert needs_now(stink(last_hand=8), 8, finished=True, winner="NS") == ""


def test_two_hands_left_are_counted_not_announced_as_the_last():
    assert needs_now(stink(target=500, last_hand=8), 6).startswith("2 hands left: the side ahead after hand 8 wins; ")


def test_the_hands_left_read_as_data_for_the_game_as_a_whole():
    rules = stink(target=500, last_hand=8)
    state = rules.resume(totals={"NS": 120, "EW": 80}, extras=None, hands_played=5)
    assert rules.needs_now(state).as_dict()["parts"][0] == {
        "side": None, "what": "hands_left", "amount": 3,
        "text": "3 hands left: the side ahead after hand 8 wins"}


def test_the_last_hand_is_one_hand_left_even_in_a_game_picked_up_past_it():
    rules = stink(target=500, last_hand=2)
    for hands_played in (1, 4):
        state = rules.resume(totals={"NS": 120, "EW": 80}, extras=None, hands_played=hands_played)
        first = rules.needs_now(state).parts[0]
        assert (first.what, first.amount) == ("hands_left", 1)
        assert first.text == "This is the last hand: the side ahead after it wins, and sides level draw"


def test_players_alone_are_named_after_the_hands_left():
    rules = get_ruleset("spades", {"partnerships": False, "target": 500, "last_hand": 8})
    state = rules.resume(totals={"N": 120, "E": 80, "S": 60, "W": 40}, extras=None, hands_played=5)
    assert rules.needs_now(state, {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}).text == (
        "3 hands left: the side ahead after hand 8 wins; Ann needs 380 to reach 500; Bob needs 420 to reach 500; "
        "Cat needs 440 to reach 500; Dan needs 460 to reach 500")

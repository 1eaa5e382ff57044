"""Trumps matches: the three seatings, match totals and match winners."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import InvalidOptions, RulesError, game_types, get_ruleset, ruleset_class
from games.rules.base import SEATS, next_seat
from games.rules.trumps_match import MatchResult, match_result, match_seatings
from tests.rules.examples import examples

SEATED = {"N": "ann", "E": "bob", "S": "cat", "W": "dan"}


def partnerships(seating):
    return {frozenset((seating[seat], seating[next_seat(seat, 2)])) for seat in SEATS}


# --- seatings -------------------------------------------------------------------------------------


def test_game_one_is_seated_as_given():
    assert match_seatings(SEATED, "N")[0] == SEATED


def test_game_two_swaps_the_dealers_partner_and_left_hand_player():
    assert match_seatings(SEATED, "N")[1] == {"N": "ann", "E": "cat", "S": "bob", "W": "dan"}


def test_game_three_swaps_the_dealers_new_partner_and_right_hand_player():
    assert match_seatings(SEATED, "N")[2] == {"N": "ann", "E": "cat", "S": "dan", "W": "bob"}


def test_the_first_dealer_keeps_their_seat():
    for dealer in SEATS:
        assert {seating[dealer] for seating in match_seatings(SEATED, dealer)} == {SEATED[dealer]}


def test_seatings_for_a_first_dealer_in_the_west():
    # W's partner is E and W's left is N: they swap; then W's new partner (in E) swaps with S.
    game1, game2, game3 = match_seatings(SEATED, "W")
    assert game2 == {"N": "bob", "E": "ann", "S": "cat", "W": "dan"}
    assert game3 == {"N": "bob", "E": "cat", "S": "ann", "W": "dan"}


@pytest.mark.parametrize("first_dealer", SEATS)
def test_every_player_partners_every_other_exactly_once(first_dealer):
    for order in permutations(["ann", "bob", "cat", "dan"]):
        seats = dict(zip(SEATS, order, strict=True))
        pairs = [pair for seating in match_seatings(seats, first_dealer) for pair in partnerships(seating)]
        assert sorted(map(sorted, pairs)) == sorted(map(sorted, combinations(order, 2)))


@settings(max_examples=examples(200), deadline=None)
@given(
    players=st.lists(st.one_of(st.integers(), st.text(max_size=3)), min_size=4, max_size=4, unique=True),
    first_dealer=st.sampled_from(SEATS),
)
def test_each_pair_partners_exactly_once_whatever_the_players(players, first_dealer):
    seats = dict(zip(SEATS, players, strict=True))
    seatings = match_seatings(seats, first_dealer)
    pairs = [pair for seating in seatings for pair in partnerships(seating)]
    assert len(pairs) == 6
    assert set(pairs) == {frozenset(pair) for pair in combinations(players, 2)}


@pytest.mark.parametrize(
    ("seats", "first_dealer", "field"),
    [
        ({"N": 1, "E": 2, "S": 3}, "N", "seats"),
        ({"N": 1, "E": 2, "S": 3, "W": 4, "X": 5}, "N", "seats"),
        ({"N": 1, "E": 2, "S": 3, "W": 1}, "N", "seats"),
        ({"N": 1, "E": 2, "S": 3, "W": 4}, "NS", "first_dealer"),
    ],
)
def test_bad_seatings_are_refused(seats, first_dealer, field):
    with pytest.raises(RulesError) as refused:
        match_seatings(seats, first_dealer)
    assert refused.value.field == field


# --- results --------------------------------------------------------------------------------------

SEATINGS = match_seatings({"N": 1, "E": 2, "S": 3, "W": 4}, "N")
# Game 1: 1+3 v 2+4; game 2: 1+2 v 3+4; game 3: 1+4 v 2+3.


def test_a_players_total_is_their_sides_totals_summed_overshoot_included():
    result = match_result(SEATINGS, [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}, {"NS": 51, "EW": 40}])
    assert result.player_totals == {1: 123, 2: 90, 3: 147, 4: 136}
    assert result.games_won == {1: 2, 2: 0, 3: 2, 4: 2}
    assert result.game_winners == ("NS", "EW", "NS")
    assert result.winners == (3,)
    assert result.complete


def test_overshoot_past_the_target_counts():
    # The same games, but NS finish game 3 on 100 instead of 51: 4's share of it now wins the match.
    result = match_result(SEATINGS, [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}, {"NS": 100, "EW": 40}])
    assert result.player_totals == {1: 172, 2: 90, 3: 147, 4: 185}
    assert result.winners == (4,)


def test_equal_totals_are_co_winners_by_default():
    result = match_result(SEATINGS, [{"NS": 60, "EW": 10}, {"NS": 10, "EW": 50}, {"NS": 50, "EW": 10}])
    assert result.player_totals == {1: 120, 2: 30, 3: 120, 4: 110}
    assert result.winners == (1, 3)


def test_match_tiebreak_games_won_settles_a_tie_on_points():
    # Game 3 was left unfinished (no side reached 50), so 1 and 2 tie on 120 points
    # although 1 won two games and 2 only one.
    totals = [{"NS": 50, "EW": 20}, {"NS": 60, "EW": 0}, {"NS": 10, "EW": 40}]
    none = match_result(SEATINGS, totals, {"match_tiebreak": "none"})
    assert none.player_totals == {1: 120, 2: 120, 3: 90, 4: 30}
    assert none.games_won == {1: 2, 2: 1, 3: 1, 4: 0}
    assert none.winners == (1, 2)
    assert match_result(SEATINGS, totals, {"match_tiebreak": "games_won"}).winners == (1,)


def test_match_tiebreak_games_won_keeps_co_winners_with_equal_games():
    # 1 and 3 tie on 120, each with two games won.
    totals = [{"NS": 60, "EW": 10}, {"NS": 10, "EW": 50}, {"NS": 50, "EW": 10}]
    result = match_result(SEATINGS, totals, {"match_tiebreak": "games_won"})
    assert result.player_totals == {1: 120, 2: 30, 3: 120, 4: 110}
    assert result.games_won == {1: 2, 2: 0, 3: 2, 4: 2}
    assert result.winners == (1, 3)


def test_partial_match_gives_running_totals_and_no_winner():
    result = match_result(SEATINGS, [{"NS": 52, "EW": 30}])
    assert result.player_totals == {1: 52, 2: 30, 3: 52, 4: 30}
    assert result.games_won == {1: 1, 2: 0, 3: 1, 4: 0}
    assert result.games_played == 1
    assert result.winners == ()
    assert not result.complete
    assert match_result(SEATINGS, []).player_totals == {1: 0, 2: 0, 3: 0, 4: 0}


def test_partial_match_accepts_only_the_seatings_played_so_far():
    # The match service passes one seating per finished game.
    result = match_result(SEATINGS[:2], [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}])
    assert result.player_totals == {1: 72, 2: 50, 3: 107, 4: 85}
    assert result.winners == ()
    assert match_result((), []).player_totals == {}


def test_a_game_in_progress_has_no_winner_yet():
    result = match_result(SEATINGS, [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 35}])
    assert result.game_winners == ("NS", None)


def test_target_option_decides_who_won_each_game():
    totals = [{"NS": 30, "EW": 12}]
    assert match_result(SEATINGS, totals).game_winners == (None,)
    assert match_result(SEATINGS, totals, {"target": 30}).game_winners == ("NS",)


def test_winners_are_listed_in_game_one_seat_order():
    seatings = match_seatings({"N": "z", "E": "y", "S": "x", "W": "w"}, "E")
    result = match_result(seatings, [{"NS": 50, "EW": 50}, {"NS": 50, "EW": 50}, {"NS": 50, "EW": 50}])
    assert result.winners == ("z", "y", "x", "w")


def test_result_is_frozen_and_serialisable():
    result = match_result(SEATINGS, [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}, {"NS": 51, "EW": 40}])
    assert isinstance(result, MatchResult)
    with pytest.raises(AttributeError):
        result.winners = (1,)  # type: ignore[misc]
    assert result.as_dict() == {
        "player_totals": {1: 123, 2: 90, 3: 147, 4: 136},
        "games_won": {1: 2, 2: 0, 3: 2, 4: 2},
        "winners": [3],
        "games_played": 3,
        "game_winners": ["NS", "EW", "NS"],
        "complete": True,
        "side_totals": [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}, {"NS": 51, "EW": 40}],
    }


@pytest.mark.parametrize(
    ("seatings", "totals", "field", "message"),
    [
        ((*SEATINGS, SEATINGS[0]), [], "seatings", "a match has at most 3 seatings, one per game"),
        (SEATINGS[0], [], "seatings", "a match has at most 3 seatings, one per game"),
        (SEATINGS[:1], [{"NS": 50, "EW": 0}] * 2, "game_totals",
         "2 games given but only 1 seatings; each game needs its seating"),
        ((SEATINGS[0], SEATINGS[1], {"N": 1, "E": 2, "S": 3, "W": 5}), [], "seatings.3",
         "every game of a match seats the same four players"),
        ((SEATINGS[0], {"N": 1, "E": 2, "S": 3}), [], "seatings.2",
         "seatings.2 needs a player in each of N, E, S, W and nothing else"),
        (({"N": 1, "E": 2, "S": 1, "W": 4},), [], "seatings.1", "seatings.1 must seat four different players"),
        (SEATINGS, [{"NS": 1, "EW": 2}] * 4, "game_totals",
         "4 games given but only 3 seatings; each game needs its seating"),
        (SEATINGS, {"NS": 1, "EW": 2}, "game_totals",
         "2 games given but only 3 seatings; each game needs its seating"),
        (SEATINGS, [{"NS": 50}], "game_totals.1", "game_totals.1 needs a total for NS and for EW"),
        (SEATINGS, [{"NS": 50, "EW": 0}, [50, 0]], "game_totals.2",
         "game_totals.2 needs a total for NS and for EW"),
        (SEATINGS, [{"NS": 50, "EW": -5}], "game_totals.1.EW",
         "a Trumps total is a whole number of at least 0, not -5"),
        (SEATINGS, [{"NS": 50, "EW": "5"}], "game_totals.1.EW",
         'a Trumps total is a whole number of at least 0, not "5"'),
        (SEATINGS, [{"NS": True, "EW": 5}], "game_totals.1.NS",
         "a Trumps total is a whole number of at least 0, not true"),
    ],
)
def test_bad_match_input_is_refused(seatings, totals, field, message):
    with pytest.raises(RulesError) as refused:
        match_result(seatings, totals)
    assert (refused.value.field, refused.value.message) == (field, message)


def test_a_total_of_nothing_is_a_total():
    assert match_result(SEATINGS, [{"NS": 0, "EW": 50}]).player_totals == {1: 0, 2: 50, 3: 0, 4: 50}


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"match_tiebreak": "coin"}, "match_tiebreak", 'match_tiebreak must be one of none, games_won, not "coin"'),
        ({"target": 0}, "target", "target must be a whole number from 1 to 1,000,000, not 0"),
        (["target"], "options", "options must be an object of option names to values"),
    ],
)
def test_bad_match_options_are_refused(options, field, message):
    with pytest.raises(InvalidOptions) as refused:
        match_result(SEATINGS, [], options)
    assert (refused.value.field, refused.value.message) == (field, message)


def test_a_match_without_options_plays_to_50_and_shares_a_tie():
    result = match_result(SEATINGS, [{"NS": 50, "EW": 49}, {"NS": 49, "EW": 50}, {"NS": 50, "EW": 0}], None)
    assert result.game_winners == ("NS", "EW", "NS")
    assert result.player_totals == {1: 149, 2: 98, 3: 100, 4: 149} and result.winners == (1, 4)


def test_a_trumps_game_seats_its_match_from_its_own_first_dealer():
    game = get_ruleset("trumps", {"first_dealer": "E"})
    assert game.match_seatings(SEATED) == match_seatings(SEATED, "E")
    assert game.match_seatings(SEATED)[1] == {"N": "ann", "E": "bob", "S": "dan", "W": "cat"}


def test_a_trumps_game_totals_its_match_under_its_own_options():
    # The same games, first to 40: every game was won; first to 50 (the default): none was.
    totals = [{"NS": 40, "EW": 10}, {"NS": 30, "EW": 40}, {"NS": 45, "EW": 35}]
    to_40 = get_ruleset("trumps", {"target": 40})
    assert to_40.match_result(to_40.match_seatings(SEATED), totals).game_winners == ("NS", "EW", "NS")
    to_50 = get_ruleset("trumps")
    assert to_50.match_result(to_50.match_seatings(SEATED), totals).game_winners == (None, None, None)
    # Game 3 left unfinished: 1 and 2 tie on 120 points, 1 with two games won and 2 with one.
    unfinished = [{"NS": 50, "EW": 20}, {"NS": 60, "EW": 0}, {"NS": 10, "EW": 40}]
    tiebreak = get_ruleset("trumps", {"match_tiebreak": "games_won"})
    assert tiebreak.match_result(SEATINGS, unfinished).winners == (1,)


@pytest.mark.parametrize("game_type", [kind for kind in game_types() if not ruleset_class(kind).match_games])
def test_a_game_not_played_in_matches_has_no_match_to_seat_or_total(game_type):
    game = get_ruleset(game_type)
    with pytest.raises(NotImplementedError, match=f"^{game_type} is not played in matches$"):
        game.match_seatings(SEATED)
    with pytest.raises(NotImplementedError, match=f"^{game_type} is not played in matches$"):
        game.match_result([], [])


@settings(max_examples=examples(200), deadline=None)
@given(
    totals=st.lists(st.fixed_dictionaries({"NS": st.integers(0, 200), "EW": st.integers(0, 200)}),
                    min_size=3, max_size=3),
    tiebreak=st.sampled_from(["none", "games_won"]),
)
def test_match_totals_add_up_and_winners_hold_the_top_total(totals, tiebreak):
    result = match_result(SEATINGS, totals, {"match_tiebreak": tiebreak})
    # Each game's points are counted once per player of the side: twice in all.
    assert sum(result.player_totals.values()) == 2 * sum(t["NS"] + t["EW"] for t in totals)
    best = max(result.player_totals.values())
    assert result.winners
    assert all(result.player_totals[player] == best for player in result.winners)
    if tiebreak == "none":
        assert set(result.winners) == {p for p, total in result.player_totals.items() if total == best}


@st.composite
def finished_games(draw, target=50):
    winner = draw(st.integers(target, 3 * target))
    loser = draw(st.integers(0, target - 1))
    return {"NS": winner, "EW": loser} if draw(st.booleans()) else {"NS": loser, "EW": winner}


@settings(max_examples=examples(200), deadline=None)
@given(totals=st.lists(finished_games(), min_size=3, max_size=3))
def test_players_tied_over_three_finished_games_have_won_as_many_games(totals):
    # Any two players are opponents in exactly two games; with every game won at the target,
    # equal match totals mean each won one of those two, so games_won cannot split them.
    none = match_result(SEATINGS, totals, {"match_tiebreak": "none"})
    games_won = match_result(SEATINGS, totals, {"match_tiebreak": "games_won"})
    assert none.winners == games_won.winners
    assert len({none.games_won[player] for player in none.winners}) == 1


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ({"NS": 50, "EW": 49}, "NS"),
        ({"NS": 12, "EW": 61}, "EW"),
        ({"NS": 49, "EW": 0}, None),
        # Both sides at the target cannot come from play (a game ends when one gets there), but totals
        # entered by hand can say so: the higher won, and level totals leave the game undecided.
        ({"NS": 52, "EW": 55}, "EW"),
        ({"NS": 58, "EW": 50}, "NS"),
        ({"NS": 52, "EW": 52}, None),
    ],
)
def test_a_game_of_a_match_was_won_by_the_side_at_the_target(totals, winner):
    assert match_result(SEATINGS, [totals]).game_winners == (winner,)

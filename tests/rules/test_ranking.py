"""How a finished game ranks: the winners first, then the others by their totals, the best first.

Each game says whether its lowest total is the best (``lower_wins``) and whether its sides are
partnerships; standings, ratings and the BG Stats link read the ranking from the ruleset.
"""

from __future__ import annotations

import pytest

from games.rules import Ruleset, game_types, get_ruleset, ruleset_class


class LowestWins(Ruleset):
    """A game of penalty points, as far as ranking goes."""

    lower_wins = True


@pytest.mark.parametrize("game_type", game_types())
def test_in_every_game_the_highest_total_is_the_best(game_type):
    assert ruleset_class(game_type).lower_wins is False


@pytest.mark.parametrize("game_type", game_types())
def test_every_game_is_played_in_partnerships_by_default(game_type):
    ruleset = get_ruleset(game_type)
    assert ruleset.partnerships is True and ruleset.sides == ("NS", "EW")


def test_spades_without_partnerships_is_four_players_alone():
    ruleset = get_ruleset("spades", {"partnerships": False})
    assert ruleset.partnerships is False and ruleset.sides == ("N", "E", "S", "W")


def test_the_winning_side_is_first_and_the_other_second():
    assert get_ruleset("smudge").places({"NS": 21, "EW": 23}, ["NS"]) == {"NS": 0, "EW": 1}


def test_the_others_follow_by_total_and_equal_totals_share_a_place():
    places = get_ruleset("spades").places({"N": 120, "E": 95, "S": 95, "W": 60}, ["N"])
    assert places == {"N": 0, "E": 1, "S": 1, "W": 3}


def test_the_winner_is_first_even_when_level_with_another():
    assert Ruleset.places({"N": 500, "E": 500, "S": 300, "W": 200}, ["E"]) == {"N": 1, "E": 0, "S": 2, "W": 3}


def test_co_winners_share_first_place_and_the_next_place_counts_them():
    assert Ruleset.places({1: 40, 2: 40, 3: 30, 4: 35}, {1, 2}) == {1: 0, 2: 0, 3: 3, 4: 2}


def test_without_a_winner_the_totals_alone_decide():
    assert Ruleset.places({"NS": 10, "EW": 30}) == {"NS": 1, "EW": 0}


def test_where_the_lowest_total_wins_the_others_follow_from_the_lowest_up():
    assert LowestWins.places({"N": 5, "E": 42, "S": 17, "W": 14}, ["N"]) == {"N": 0, "E": 3, "S": 2, "W": 1}


@pytest.mark.parametrize(("ruleset", "total", "against", "margin", "best"), [
    (Ruleset, 120, 95, 25, 120),
    (Ruleset, 95, 120, -25, 120),
    (LowestWins, 5, 14, 9, 5),
    (LowestWins, 42, 5, -37, 5),
])
def test_a_margin_is_positive_for_the_better_total(ruleset, total, against, margin, best):
    assert ruleset.margin(total, against) == margin
    assert ruleset.better(total, against) is (margin > 0)
    assert ruleset.best_total([total, against]) == best


def test_there_is_no_best_of_no_totals():
    assert Ruleset.best_total([]) is None and LowestWins.best_total([]) is None

"""OpenSkill ratings on small hand-made leagues (no database).

Worked by hand for the first game of a league, two teams of two, with OpenSkill's Plackett-Luce
defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300):

  each player's sigma^2 after tau: (25/3)^2 + (25/300)^2            = 69.4514
  a team's sigma^2: 2 * 69.4514                                     = 138.9028
  c^2 = both teams' (sigma^2 + beta^2) = 2 * (138.9028 + 17.3611)   = 312.5278, c = 17.6784
  equal team mus: each team's chance of first place                 = 1/2
  winner's mu: 25 + (69.4514 / 17.6784) * (1 - 1/2)                 = 26.9643; loser's 23.0357
  gamma = sqrt(138.9028) / c = 2/3; delta = gamma * 138.9028/c^2 * 1/2 * 1/2 = 0.074075
  everyone's sigma: sqrt(69.4514 * (1 - 69.4514/138.9028 * delta))  = 8.1780
  ordinal, mu - 3 sigma: 26.9643 - 24.5339 = 2.4304 (winners), 23.0357 - 24.5339 = -1.4982 (losers)
"""

from __future__ import annotations

import random

import pytest

from games.standings.ratings import league_ratings, rated_results

from .conftest import START, cutthroat, game, match


def skills_of(ratings):
    return {(skill.game_type, skill.player_id): skill for skill in ratings.skills}


def test_first_partnership_game_worked_by_hand():
    skills = skills_of(league_ratings([game(1, "smudge", (1, 3), (2, 4), (21, 9), "NS")]))
    for winner in (1, 3):
        assert skills[("smudge", winner)].mu == pytest.approx(26.9643, abs=1e-4)
        assert skills[("smudge", winner)].sigma == pytest.approx(8.1780, abs=1e-4)
        assert skills[("smudge", winner)].ordinal == pytest.approx(2.4304, abs=1e-4)
    for loser in (2, 4):
        assert skills[("smudge", loser)].mu == pytest.approx(23.0357, abs=1e-4)
        assert skills[("smudge", loser)].ordinal == pytest.approx(-1.4982, abs=1e-4)


def test_equal_ordinals_share_a_rank():
    skills = skills_of(league_ratings([game(1, "smudge", (1, 3), (2, 4), (21, 9), "NS")]))
    assert [skills[("smudge", player)].rank for player in (1, 2, 3, 4)] == [1, 3, 1, 3]


def test_game_types_are_rated_apart():
    ratings = league_ratings([
        game(1, "smudge", (1, 3), (2, 4), (21, 9), "NS"),
        game(2, "spades", (1, 3), (2, 4), (200, 510), "EW"),
    ])
    skills = skills_of(ratings)
    assert skills[("smudge", 1)].mu > 25 > skills[("spades", 1)].mu
    assert skills[("spades", 1)].rated == 1
    assert [(point.game_type, point.sequence) for point in ratings.history if point.player_id == 1] == [
        ("smudge", 1), ("spades", 1)]


def test_results_are_learned_in_game_order_whatever_order_they_come_in():
    league = [
        game(1, "spades", (1, 3), (2, 4), (520, 300), "NS"),
        game(2, "spades", (1, 2), (3, 4), (410, 505), "EW"),
        game(3, "spades", (1, 3), (2, 5), (500, 480), "NS"),
        game(4, "spades", (4, 5), (2, 3), (510, 500), "NS", minutes=3),  # same minute as game 3: id decides
    ]
    expected = league_ratings(league)
    for seed in range(3):
        shuffled = league[:]
        random.Random(seed).shuffle(shuffled)
        assert league_ratings(shuffled) == expected
    assert [point.game_id for point in expected.history if point.player_id == 2] == [1, 2, 3, 4]
    # Order matters to OpenSkill, so learning in another order gives other numbers.
    reordered = [game(1, "spades", (1, 3), (2, 4), (520, 300), "NS", minutes=9), *league[1:]]
    assert league_ratings(reordered).skills != expected.skills


def test_cutthroat_places_winner_first_then_by_total():
    (result,) = rated_results([cutthroat(7, (1, 2, 3, 4), (150, 90, 120, 90), "N")])
    assert result.teams == ((1,), (2,), (3,), (4,))
    assert result.places == (0, 2, 1, 2)
    skills = skills_of(league_ratings([cutthroat(7, (1, 2, 3, 4), (150, 90, 120, 90), "N")]))
    assert skills[("spades", 1)].mu > skills[("spades", 3)].mu > skills[("spades", 2)].mu
    assert skills[("spades", 2)].mu == pytest.approx(skills[("spades", 4)].mu)


def test_trumps_matches_are_rated_as_individuals_and_their_games_are_not():
    games = [
        game(1, "trumps", (1, 3), (2, 4), (52, 30), "NS", match_id=9),
        game(2, "trumps", (1, 2), (3, 4), (20, 55), "EW", match_id=9),
        game(3, "trumps", (1, 4), (3, 2), (51, 40), "NS", match_id=9),
        game(4, "trumps", (1, 2), (3, 4), (50, 10), "NS"),  # not in a match: rated as partners
    ]
    results = rated_results(games, [match(9, {1: 123, 2: 90, 3: 147, 4: 136}, {3}, minutes=3)])
    assert [(result.game_id, result.match_id) for result in results] == [(None, 9), (4, None)]
    assert results[0].teams == ((1,), (2,), (3,), (4,))
    assert results[0].places == (2, 3, 0, 1)
    assert results[0].played_at == START.replace(minute=3)


def test_a_tied_match_shares_first_place():
    (result,) = rated_results([], [match(5, {1: 100, 2: 100, 3: 80, 4: 80}, {1, 2}, minutes=1)])
    assert result.places == (0, 0, 2, 2)




def test_a_drawn_game_rates_both_sides_as_tied():
    from games.rules import get_ruleset
    from games.standings.results import GameResult

    level = GameResult.of(get_ruleset("smudge", {"last_hand": 8}), game_id=1, finished_at=START,
                          seating={"N": 1, "S": 3, "E": 2, "W": 4}, totals={"NS": 14, "EW": 14}, winner="")
    [result] = rated_results([level])
    assert result.places == (0, 0)
    skills = skills_of(league_ratings([level]))
    # Equal teams tied: nobody's mu moves, and everyone is as sure of it as after any first game.
    assert {round(skills[("smudge", player)].mu, 6) for player in (1, 2, 3, 4)} == {25.0}

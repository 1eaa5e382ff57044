"""League table arithmetic on a small hand-made league (no database).

The league: players 1..5.
  game 1, Spades: NS 1+3 beat EW 2+4, 520 to 300
  game 2, Spades: EW 3+4 beat NS 1+2, 505 to 410
  game 3, Spades: NS 1+3 beat EW 2+5, 500 to 480
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.rules import get_ruleset
from games.standings.results import GameResult
from games.standings.tables import league_table

from .conftest import START, cutthroat, game, match

LEAGUE = [
    game(1, "spades", (1, 3), (2, 4), (520, 300), "NS"),
    game(2, "spades", (1, 2), (3, 4), (410, 505), "EW"),
    game(3, "spades", (1, 3), (2, 5), (500, 480), "NS"),
]


def lines_by_key(lines):
    return {(line.game_type, line.player_id, line.partner_id): line for line in lines}


def test_player_lines_worked_by_hand():
    lines = lines_by_key(league_table(LEAGUE))
    one = lines[("spades", 1, None)]
    # won games 1 and 3; for 520 + 410 + 500, against 300 + 505 + 480; margin 145 over 3 games
    assert (one.played, one.won, one.lost, one.streak) == (3, 2, 1, "W1")
    assert (one.points_for, one.points_against) == (1430, 1285)
    assert one.win_rate == pytest.approx(2 / 3)
    assert one.average_margin == pytest.approx(145 / 3)
    assert one.last_played == START + timedelta(minutes=3)
    three = lines[("spades", 3, None)]
    assert (three.won, three.streak, three.points_for, three.points_against) == (3, "W3", 1525, 1190)
    four = lines[("spades", 4, None)]
    assert (four.played, four.won, four.streak, four.average_margin) == (2, 1, "W1", pytest.approx(-62.5))
    five = lines[("spades", 5, None)]
    assert (five.played, five.lost, five.streak, five.win_rate) == (1, 1, "L1", 0.0)


def test_partnership_lines_are_unordered_pairs():
    lines = lines_by_key(league_table(LEAGUE))
    pairs = {key[1:] for key in lines if key[2] is not None}
    assert pairs == {(1, 3), (2, 4), (1, 2), (3, 4), (2, 5)}
    one_three = lines[("spades", 1, 3)]
    assert (one_three.played, one_three.won, one_three.streak) == (2, 2, "W2")
    assert one_three.average_margin == pytest.approx(120)
    assert lines[("spades", 2, 5)].streak == "L1"


def test_order_given_does_not_matter_but_finish_time_does():
    shuffled = LEAGUE[:]
    random.Random(4).shuffle(shuffled)
    assert league_table(shuffled) == league_table(LEAGUE)
    # If game 1 finished last, player 1's history is L (game 2), W (3), W (1): a streak of W2.
    late = [game(1, "spades", (1, 3), (2, 4), (520, 300), "NS", minutes=10), *LEAGUE[1:]]
    one = lines_by_key(league_table(late))[("spades", 1, None)]
    assert one.streak == "W2"


def test_cutthroat_points_against_are_the_best_other_total():
    lines = lines_by_key(league_table([cutthroat(7, (1, 2, 3, 4), (150, 90, 120, 90), "N")]))
    assert (lines[("spades", 1, None)].points_against, lines[("spades", 1, None)].average_margin) == (120, 30)
    assert (lines[("spades", 2, None)].points_against, lines[("spades", 2, None)].average_margin) == (150, -60)
    assert not [key for key in lines if key[2] is not None]


def test_trumps_matches_add_match_figures_per_player():
    games = [game(11, "trumps", (1, 3), (2, 4), (50, 20), "NS")]
    matches = [match(1, {1: 120, 2: 90, 3: 147, 4: 136}, {3}, minutes=20),
               match(2, {1: 100, 2: 100, 3: 80, 4: 70}, {1, 2}, minutes=40)]
    lines = lines_by_key(league_table(games, matches))
    one = lines[("trumps", 1, None)]
    assert (one.played, one.won, one.matches_played, one.matches_won, one.match_points) == (1, 1, 2, 1, 220)
    two = lines[("trumps", 2, None)]
    assert (two.matches_won, two.match_points) == (1, 190)  # co-winner of the tied match
    assert lines[("trumps", 3, None)].matches_won == 1
    assert lines[("trumps", 1, 3)].matches_played == 0


def test_a_game_without_a_winner_is_not_counted():
    assert league_table([game(1, "smudge", (1, 3), (2, 4), (20, 20), "")]) == []


def drawn(game_id, ns, ew, total):
    """A game of a fixed number of hands that ended level: nobody won it."""
    return GameResult.of(get_ruleset("smudge", {"last_hand": 8}), game_id=game_id,
                         finished_at=START + timedelta(minutes=game_id),
                         seating={"N": ns[0], "S": ns[1], "E": ew[0], "W": ew[1]},
                         totals={"NS": total, "EW": total}, winner="")


def test_a_drawn_game_is_played_but_neither_won_nor_lost():
    lines = lines_by_key(league_table([game(1, "smudge", (1, 3), (2, 4), (21, 9), "NS"), drawn(2, (1, 2), (3, 4), 14)]))
    one = lines[("smudge", 1, None)]
    assert (one.played, one.won, one.lost, one.streak) == (2, 1, 0, "D1")
    assert (one.points_for, one.points_against, one.average_margin) == (35, 23, 6)
    four = lines[("smudge", 4, None)]
    assert (four.played, four.won, four.lost, four.win_rate) == (2, 0, 1, 0.0)
    assert lines[("smudge", 3, 4)].streak == "D1"


def test_a_finished_game_without_a_winner_that_could_not_draw_is_not_counted():
    impossible = GameResult.of(get_ruleset("smudge"), game_id=5, finished_at=START,
                               seating={"N": 1, "S": 3, "E": 2, "W": 4}, totals={"NS": 14, "EW": 14}, winner="")
    assert league_table([impossible]) == []

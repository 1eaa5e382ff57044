"""Trumps matches: three games, partners rotating, the next game started as one finishes."""

from __future__ import annotations

import pytest

from games.errors import GameClosed
from games.models import Game, Match
from games.services import hand_correct, hand_record, hand_undo, match_start

# North declares and makes 13 no trump: 150 to NS, which wins any game to 50 in one hand.
NS_SWEEP = {"declarer": "N", "bid": 13, "trump": "notrump", "doubled": False, "redoubled": False, "tricks": 13}
EW_SWEEP = {**NS_SWEEP, "declarer": "E"}
SMALL = {"declarer": "N", "bid": 1, "trump": "clubs", "doubled": False, "redoubled": False, "tricks": 1}


def seating(game: Game) -> dict[str, str]:
    return {seat: player.name for seat, player in game.seats.items()}


@pytest.fixture
def match(league, owner, seats):
    return match_start(game_type="trumps", seats=seats, league=league, by=owner)


def test_game_one_is_seated_as_given(match):
    game = match.games.get()
    assert (game.match_game_number, seating(game)) == (1, {"N": "Ann", "E": "Ben", "S": "Cat", "W": "Dan"})


def test_each_finished_game_starts_the_next_with_partners_rotated(match, owner):
    hand_record(game=match.games.get(match_game_number=1), record=NS_SWEEP, by=owner)
    second = match.games.get(match_game_number=2)
    # The dealer's partner (Cat) and the player on the dealer's left (Ben) swap.
    assert seating(second) == {"N": "Ann", "E": "Cat", "S": "Ben", "W": "Dan"}
    hand_record(game=second, record=NS_SWEEP, by=owner)
    third = match.games.get(match_game_number=3)
    # The dealer's new partner (Ben) and the player on the dealer's right (Dan) swap.
    assert seating(third) == {"N": "Ann", "E": "Cat", "S": "Dan", "W": "Ben"}


def test_the_match_ends_with_each_players_total_and_the_winner(match, owner, players):
    ann, ben, cat, dan = players
    hand_record(game=match.games.get(match_game_number=1), record=NS_SWEEP, by=owner)  # Ann & Cat 150
    hand_record(game=match.games.get(match_game_number=2), record=EW_SWEEP, by=owner)  # Cat & Dan 150
    hand_record(game=match.games.get(match_game_number=3), record=EW_SWEEP, by=owner)  # Cat & Ben 150
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at
    assert match.player_totals == {str(ann.pk): 150, str(ben.pk): 150, str(cat.pk): 450, str(dan.pk): 150}
    assert match.winners == [cat.pk]


def test_a_finished_game_cannot_be_reopened_once_the_next_has_begun(match, owner):
    first = match.games.get(match_game_number=1)
    hand_record(game=first, record=SMALL, by=owner)
    hand_record(game=first, record=NS_SWEEP, by=owner)
    with pytest.raises(GameClosed, match="game 2 of this match has begun"):
        hand_undo(game=first, by=owner)
    with pytest.raises(GameClosed):
        hand_correct(game=first, number=2, record=SMALL, by=owner)
    # A correction that keeps the result is fine, and the match totals follow it.
    hand_correct(game=first, number=1, record={**SMALL, "tricks": 3}, by=owner)
    match.refresh_from_db()
    assert sorted(match.player_totals.values()) == [0, 0, 153, 153]

"""A game finishing, or a correction or undo touching a finished game, updates the league's standings.

The services publish ``GameResultChanged``; its subscriber queues ``league_standings_update`` once their
transaction commits. Here tasks run in-process (eager), as without Redis.
"""

from __future__ import annotations

from unittest import mock

import pytest

from games.models import Standing
from games.services import hand_correct, hand_undo, match_start
from games.subscribers import standings_follow_result

from .conftest import ONE_HAND

pytestmark = pytest.mark.django_db


def won(league, player, game_type="spades"):
    return Standing.objects.get(league=league, game_type=game_type, player=player, partner=None).won


def test_finishing_a_game_updates_the_standings(league, players, play_game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play_game("spades", winner="NS")
    # One standings update queued (the other callbacks send the league's webhooks, if it has any).
    assert sum(callback.func is standings_follow_result for callback in callbacks) == 1
    assert won(league, players[0]) == 1


def test_a_correction_that_changes_the_winner_updates_the_standings(
    league, players, owner, play_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game("spades", winner="NS")
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(game=game, number=2, record=ONE_HAND["spades"]["EW"], by=owner)  # 121 to 121: plays on
    assert not Standing.objects.filter(league=league).exists()


def test_an_undo_of_a_finishing_hand_updates_the_standings(
    league, players, owner, play_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game("smudge", winner="EW")
        play_game("smudge", winner="EW")
    assert won(league, players[1], "smudge") == 2
    with django_capture_on_commit_callbacks(execute=True):
        hand_undo(game=game, by=owner)
    assert won(league, players[1], "smudge") == 1


def test_a_finished_trumps_match_adds_match_figures(league, players, owner, seats,
                                                    django_capture_on_commit_callbacks):
    from games.services import hand_record

    with django_capture_on_commit_callbacks(execute=True):
        match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
        for _ in range(3):  # NS wins each game 5 to 0; the seats rotate between games
            game = match.games.order_by("-match_game_number").first()
            hand_record(game=game, record=ONE_HAND["trumps"]["NS"], by=owner)
    match.refresh_from_db()
    assert match.status == "finished"
    ann, ben, cat, dan = players
    # Ann sits N throughout: 15; the others were her partner once: 5 each.
    ann_line = Standing.objects.get(league=league, game_type="trumps", player=ann, partner=None)
    assert (ann_line.played, ann_line.won, ann_line.matches_played, ann_line.matches_won,
            ann_line.match_points) == (3, 3, 1, 1, 15)
    ben_line = Standing.objects.get(league=league, game_type="trumps", player=ben, partner=None)
    assert (ben_line.won, ben_line.matches_won, ben_line.match_points) == (1, 0, 5)


def test_games_outside_leagues_queue_nothing(owner, seats, django_capture_on_commit_callbacks):
    from games.services import game_start, hand_record

    with mock.patch("games.tasks.league_standings_update.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        game = game_start(game_type="trumps", seats=seats, by=owner, options={"target": 5})
        hand_record(game=game, record=ONE_HAND["trumps"]["NS"], by=owner)
    delay.assert_not_called()


def test_the_task_for_a_league_that_is_gone_does_nothing():
    from games.tasks import league_standings_update

    assert league_standings_update.delay(987654).get() == {"league_id": 987654, "missing": True}


def test_a_correction_that_keeps_the_result_still_updates_the_figures(
    league, players, owner, play_game, django_capture_on_commit_callbacks
):
    from games.models import PlayerFigures

    with django_capture_on_commit_callbacks(execute=True):
        game = play_game("thieving_stink", winner="NS")
    ann, _, cat, _ = players
    assert PlayerFigures.objects.get(league=league, player=ann).counts["stack_holds"] == 1
    partner_holds = {**ONE_HAND["thieving_stink"]["NS"], "trump_stack": {"holder": "S", "size": 4}}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        hand_correct(game=game, number=1, record=partner_holds, by=owner)  # the same totals, the same winner
    assert sum(callback.func is standings_follow_result for callback in callbacks) == 1
    assert PlayerFigures.objects.get(league=league, player=ann).counts["stack_holds"] == 0
    assert PlayerFigures.objects.get(league=league, player=cat).counts["stack_holds"] == 1

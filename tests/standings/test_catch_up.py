"""The catch-up task recomputes leagues whose standings are older than their latest result."""

from __future__ import annotations

from unittest import mock

import pytest

from games.models import Standing
from games.tasks import standings_catch_up

pytestmark = pytest.mark.django_db


def test_a_result_whose_update_was_never_queued_is_caught_up(league, players, play_game):
    with mock.patch("games.tasks.league_standings_update.delay"):  # the broker was down
        play_game("smudge", winner="NS")
    assert not Standing.objects.filter(league=league).exists()

    assert standings_catch_up.delay().get() == [league.pk]

    assert Standing.objects.filter(league=league, game_type="smudge").count() == 6
    assert standings_catch_up.delay().get() == []


def test_a_league_with_no_games_needs_nothing(league):
    assert standings_catch_up.delay().get() == []


def test_celery_beat_runs_the_catch_up_every_five_minutes():
    from scorekeeper.celery import app

    entry = next(entry for entry in app.conf.beat_schedule.values() if entry["task"] == standings_catch_up.name)
    assert entry["schedule"] == 300


def test_a_league_whose_update_found_nothing_new_is_not_caught_up_again(league, players, play_game, recompute):
    from games.standings.services import league_standings_update

    play_game("smudge", winner="NS")
    recompute()
    play_game("smudge", winner="EW")
    assert standings_catch_up.delay().get() == [league.pk]  # folded the new game in
    assert standings_catch_up.delay().get() == []
    assert league_standings_update(league_id=league.pk).mode == "unchanged"
    assert standings_catch_up.delay().get() == []

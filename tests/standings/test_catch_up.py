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

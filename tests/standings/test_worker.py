"""Standings computed by a real Celery worker over a real Redis, on PostgreSQL.

The worker runs in this process (``celery.contrib.testing.worker.start_worker``), in threads
that open their own database connections, so these tests commit for real
(``transaction=True``) and wait for the worker to see the rows. Skipped on a bare machine;
CI runs them with REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import time
from unittest import mock

import pytest
from celery import group
from django.db import OperationalError, close_old_connections

from games.models import Game, PlayerFigures, PlayerRating, RatingChange, Standing
from games.services import game_start
from games.standings import services as standings_services
from games.tasks import league_standings_update, standings_rebuild_task

from .conftest import LOW_TARGETS, ONE_HAND

pytestmark = pytest.mark.django_db(transaction=True)


class WorkerDied(Exception):
    """Stands for the process dying at this point: the task stops and its transaction is not committed."""


@pytest.fixture
def live_worker(redis_url, postgres):
    from celery.contrib.testing.worker import start_worker

    from scorekeeper.celery import app

    app.conf.task_always_eager = False
    try:
        app.control.purge()  # nothing left over from another run
        with start_worker(app, pool="threads", concurrency=4, perform_ping_check=False, loglevel="WARNING",
                          shutdown_timeout=30) as worker:
            yield worker
    finally:
        app.conf.task_always_eager = True  # as the test settings have it, for the tests that follow
        close_old_connections()


def stored(league):
    return (
        list(Standing.objects.filter(league=league).order_by("game_type", "player", "partner")
             .values_list("game_type", "player", "partner", "played", "won", "points_for", "streak")),
        list(PlayerRating.objects.filter(league=league).order_by("game_type", "player")
             .values_list("player", "mu", "sigma", "rank")),
    )


def wait_for(condition, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("the worker did not get there in time")


def spades_won_by(league, player) -> int:
    line = Standing.objects.filter(league=league, game_type="spades", player=player, partner=None).first()
    return line.won if line else 0


def finish_through_the_api(client, game: Game, winner: str) -> None:
    for _ in range(2):
        response = client.post(f"/api/v1/games/{game.pk}/hands/", ONE_HAND["spades"][winner],
                               format="json")
        assert response.status_code == 201, response.content


@pytest.fixture
def api(owner):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def new_spades(league, owner, seats):
    def start() -> Game:
        return game_start(game_type="spades", seats=seats, by=owner, league=league,
                          options={"target": LOW_TARGETS["spades"]})

    return start


def test_finishing_a_game_through_the_api_updates_the_standings(live_worker, league, players, api, new_spades):
    ann = players[0]
    finish_through_the_api(api, new_spades(), "NS")
    wait_for(lambda: spades_won_by(league, ann) == 1)
    finish_through_the_api(api, new_spades(), "NS")
    wait_for(lambda: spades_won_by(league, ann) == 2)
    assert Standing.objects.get(league=league, player=ann, partner=None).streak == "W2"


def test_the_same_update_twice_and_at_once_gives_the_same_standings(live_worker, league, players, api, new_spades):
    for winner in ("NS", "EW", "EW"):
        finish_through_the_api(api, new_spades(), winner)
    league_standings_update.delay(league.pk).get(timeout=30)
    expected = stored(league)
    assert len(expected[0]) == 6

    league_standings_update.delay(league.pk).get(timeout=30)
    assert stored(league) == expected

    # Six at once on four worker threads, and a rebuild beside them: they take turns on the league row.
    together = group([league_standings_update.s(league.pk) for _ in range(6)]).apply_async()
    rebuild = standings_rebuild_task.delay(league.slug)
    summaries = together.get(timeout=60)
    rebuild.get(timeout=60)
    assert {summary["games"] for summary in summaries} == {3}
    assert stored(league) == expected


def test_a_task_that_dies_half_way_leaves_the_old_standings_and_a_rebuild_puts_them_right(
    live_worker, league, players, api, new_spades
):
    ann = players[0]
    finish_through_the_api(api, new_spades(), "NS")
    wait_for(lambda: spades_won_by(league, ann) == 1)
    before = stored(league)

    real_save = standings_services.save_watermark

    def die_after_deleting(scope, **kwargs):
        Standing.objects.filter(**scope.rows).delete()
        raise WorkerDied("the worker was killed here")

    # The update writes the watermark last, whichever way it went (folding in or recomputing).
    with mock.patch.object(standings_services, "save_watermark", side_effect=die_after_deleting):
        finish_through_the_api(api, new_spades(), "NS")
        failed = league_standings_update.delay(league.pk)
        with pytest.raises(WorkerDied):
            failed.get(timeout=30)
        # The half-done work was rolled back: the old standings are still whole.
        assert stored(league) == before

    assert standings_services.save_watermark is real_save
    standings_rebuild_task.delay(league.slug).get(timeout=30)
    assert spades_won_by(league, ann) == 2


def test_a_database_error_is_retried(live_worker, league, players, api, new_spades):
    ann = players[0]
    finish_through_the_api(api, new_spades(), "NS")
    wait_for(lambda: spades_won_by(league, ann) == 1)
    real_save = standings_services.save_watermark
    calls = []

    def lose_the_connection_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_save(*args, **kwargs)

    with mock.patch.object(standings_services, "save_watermark", side_effect=lose_the_connection_once):
        game = new_spades()
        with mock.patch("games.tasks.league_standings_update.delay"):  # only the run below
            finish_through_the_api(api, game, "EW")
        summary = league_standings_update.delay(league.pk).get(timeout=60)
    assert len(calls) == 2
    assert summary["games"] == 2
    assert Standing.objects.get(league=league, player=ann, partner=None).streak == "L1"


def test_a_new_game_updated_by_several_workers_at_once_is_counted_once(live_worker, league, players, api,
                                                                       new_spades):
    ann = players[0]
    finish_through_the_api(api, new_spades(), "NS")
    wait_for(lambda: spades_won_by(league, ann) == 1)
    with mock.patch("games.tasks.league_standings_update.delay"):  # only the runs below
        finish_through_the_api(api, new_spades(), "EW")

    together = group([league_standings_update.s(league.pk) for _ in range(6)]).apply_async()
    summaries = together.get(timeout=60)

    # One run folded the game in; the others, taking their turn on the league row, found nothing new.
    assert sorted(summary["mode"] for summary in summaries) == ["incremental"] + ["unchanged"] * 5
    assert RatingChange.objects.filter(league=league).count() == 8
    folded = everything(league)
    standings_rebuild_task.delay(league.slug).get(timeout=30)
    assert everything(league) == folded
    assert Standing.objects.get(league=league, player=ann, partner=None).streak == "L1"


def everything(league):
    """Every stored row of the league, but for ids and times of computing."""
    rows = []
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
        fields = [field.attname for field in model._meta.concrete_fields
                  if field.name not in ("id", "computed_at")]
        rows.append(sorted(model.objects.filter(league=league).values_list(*fields), key=repr))
    return rows

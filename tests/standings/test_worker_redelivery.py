"""A task held by a worker that is SIGKILLed (no chance to give it back) is delivered again within the
visibility timeout, minutes rather than Redis's default hour: here a few seconds, set for the test.

The workers are real ``celery worker`` processes (loadtest/stack.py) on the test's PostgreSQL database and
Redis; the test holds the league's row lock so that the first worker is stuck inside the task when it is
killed. Skipped on a bare machine; CI runs it with REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.db import connection, transaction

from games.models import League, Standing
from games.tasks import league_standings_update

from .conftest import LOW_TARGETS, ONE_HAND

# Its workers take tasks from the same Redis database as tests/standings/test_worker.py's: not side by side.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("celery-worker")]

VISIBILITY_TIMEOUT = 3


@pytest.fixture
def worker_env(redis_url, postgres, tmp_path):
    """The environment of a worker process working on this test's database, with a short visibility timeout."""
    from loadtest import stack

    database_url = stack.with_path(os.environ["DATABASE_URL"], connection.settings_dict["NAME"])
    return stack.app_env(database_url=database_url, redis_url=redis_url,
                         extra={"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)})


@pytest.fixture
def queue(redis_url):
    """The Celery app sending to Redis for real (not in-process), with nothing left over in the queue."""
    import redis

    from scorekeeper.celery import app

    app.conf.task_always_eager = False
    app.control.purge()
    client = redis.Redis.from_url(redis_url)
    client.delete("unacked", "unacked_index")
    yield client
    app.conf.task_always_eager = True


@pytest.fixture
def finished_game(league, owner, seats):
    """A finished league game, its standings computed in-process (before the queue is made real)."""
    from games.services import game_start, hand_record

    game = game_start(game_type="spades", seats=seats, by=owner, league=league,
                      options={"target": LOW_TARGETS["spades"]})
    for _ in range(2):
        hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    return game


def held_by_a_worker(client, task_id: str) -> bool:
    """Whether a worker has taken the task and not yet acknowledged it (kombu keeps such messages in Redis)."""
    return any(task_id.encode() in message for message in client.hvals("unacked"))


def wait_for(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)


def test_a_task_held_by_a_killed_worker_is_delivered_again_soon(finished_game, worker_env, queue, league, tmp_path):
    from loadtest import stack

    locked, release = threading.Event(), threading.Event()

    def hold_the_league() -> None:
        # In a thread of its own, with its own connection: the worker's update waits on this lock.
        with transaction.atomic():
            League.objects.select_for_update().get(pk=league.pk)
            locked.set()
            release.wait(60)
        connection.close()

    holder = threading.Thread(target=hold_the_league)
    holder.start()
    assert locked.wait(10)
    workers = [stack.celery_worker(env=worker_env, log=tmp_path / "first-worker.log", concurrency=1)]
    try:
        result = league_standings_update.delay(league.pk)
        wait_for(lambda: held_by_a_worker(queue, result.id), timeout=20)
        workers[0].kill()  # SIGKILL, the whole process group: the task is neither done nor given back
        release.set()
        workers.append(stack.celery_worker(env=worker_env, log=tmp_path / "second-worker.log", concurrency=1))
        summary = result.get(timeout=VISIBILITY_TIMEOUT + 30)
    finally:
        release.set()
        holder.join(10)
        for worker in workers:
            worker.stop()
    assert summary["league_id"] == league.pk
    assert "league_standings_update[" + result.id + "] received" in (tmp_path / "second-worker.log").read_text()
    assert Standing.objects.filter(league=league, game_type="spades").exists()

"""The Celery app. Tasks live in ``games/tasks.py``; without REDIS_URL they run in-process."""

from __future__ import annotations

import logging
import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

logger = logging.getLogger(__name__)

app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class CatchUpOnConnect(bootsteps.StartStopStep):
    """Queue the standings catch-up whenever a worker (re)connects to the broker.

    A standings update that could not be queued while Redis was down is owed to its league; a worker
    starting, or reconnecting once Redis is back, is the moment it can be done. Without this, such a
    league would wait for Celery beat or for its next finished game.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer) -> None:
        consumer.app.send_task("games.standings_catch_up", expires=240)
        logger.info("connected to the broker; queued the standings catch-up")


app.steps["consumer"].add(CatchUpOnConnect)

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


# Work owed while the broker was down or lost its data (a restart without persistence, a FLUSHALL): the
# standings updates and the webhook attempts that could not be queued, or whose queued tasks are gone.
# Every webhook attempt due by now is queued again (an attempt queued twice is made once).
CATCH_UPS = {"games.standings_catch_up": {}, "games.webhooks_catch_up": {"grace_seconds": 0}}


class CatchUpOnConnect(bootsteps.StartStopStep):
    """Queue the standings and webhook catch-ups whenever a worker (re)connects to the broker.

    A standings update or a webhook attempt that could not be queued while Redis was down (or whose task
    Redis lost) is owed; a worker starting, or reconnecting once Redis is back, is the moment it can be
    done. Without this, it would wait for Celery beat's next catch-up (up to five minutes), or for the
    league's next finished game.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer) -> None:
        for task, kwargs in CATCH_UPS.items():
            consumer.app.send_task(task, kwargs=kwargs, expires=240)
        logger.info("connected to the broker; queued the standings and webhook catch-ups")


app.steps["consumer"].add(CatchUpOnConnect)

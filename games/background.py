"""Work a request queues that must not hold up its answer, when there is no worker to hand it to.

With a broker (``REDIS_URL``) Celery gives tasks to a worker. Without one (a fresh clone, ``make run``)
tasks run in-process as soon as they are queued (``CELERY_TASK_ALWAYS_EAGER``), and a task queued while a
request is being answered would run inside that request. :func:`after_response` holds such work until
Django's ``request_finished`` signal, which the web server sends once it has written the whole response
(WSGI's ``close()``); the scorekeeper has their answer by then. The same piece of work queued twice by
one request runs once. Outside a request (a command, the shell, a service called directly) it runs at
once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable

from django.core.signals import request_finished, request_started
from django.db import connections

logger = logging.getLogger(__name__)
_held = threading.local()


def after_response(key: Hashable, work: Callable[[], object]) -> None:
    """Run ``work`` once the current request's response has been sent (at once outside a request)."""
    held: dict[Hashable, Callable[[], object]] | None = getattr(_held, "work", None)
    if held is None:
        work()
    else:
        held.setdefault(key, work)


def hold(**kwargs) -> None:
    _held.work = {}


def release(**kwargs) -> None:
    held = getattr(_held, "work", None)
    _held.work = None
    if not held:
        return
    for key, work in held.items():
        try:
            work()
        except Exception:  # noqa: BLE001 - the answer is sent; the next update or a rebuild repairs it
            logger.exception("work held until after the response failed: %s", key)
    # The work may have opened a database connection after Django closed the request's; close it as Django
    # would have (never one holding a transaction, as a test's does).
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def connect() -> None:
    """Hold work queued during a request until its response is sent (called once, when the app is ready)."""
    request_started.connect(hold, dispatch_uid="games.background.hold")
    request_finished.connect(release, dispatch_uid="games.background.release")

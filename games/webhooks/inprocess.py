"""The sender for a site without a Celery worker (development without Redis): one background thread.

Where tasks run in-process, a delivery sent by a task would be sent inside the request that
recorded the hand, making the scorekeeper wait for someone else's server. Instead deliveries go to
this thread, which sends them one at a time and schedules retries with timers. It lives as long as
the process: a retry still waiting when the server stops is left to the catch-up task.
"""

from __future__ import annotations

import logging
import queue
import threading

from django.db import connection

from .delivery import attempt_delivery

logger = logging.getLogger(__name__)

jobs: queue.Queue[tuple[int, int]] = queue.Queue()
started = threading.Lock()
sender: threading.Thread | None = None


def submit(delivery_id: int, *, attempt: int, delay: float = 0) -> None:
    """Send attempt ``attempt`` of the delivery from the background thread, after ``delay`` seconds."""
    ensure_sender()
    if delay > 0:
        timer = threading.Timer(delay, jobs.put, args=((delivery_id, attempt),))
        timer.daemon = True
        timer.start()
    else:
        jobs.put((delivery_id, attempt))


def ensure_sender() -> None:
    global sender
    with started:
        if sender is None or not sender.is_alive():
            sender = threading.Thread(target=run, name="webhook-sender", daemon=True)
            sender.start()


def run() -> None:
    while True:
        delivery_id, attempt = jobs.get()
        retry_in = None
        try:
            retry_in = attempt_delivery(delivery_id, attempt)
        except Exception:  # noqa: BLE001 - one bad delivery must not stop the thread
            logger.exception("webhook delivery %s failed in the in-process sender", delivery_id)
        finally:
            connection.close()  # this thread's own connection; a new one is opened for the next job
            jobs.task_done()
        if retry_in is not None:
            submit(delivery_id, attempt=attempt + 1, delay=retry_in)


def wait_until_idle() -> None:
    """Block until every delivery handed to the thread so far has been attempted (for tests and commands)."""
    jobs.join()

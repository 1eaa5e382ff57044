"""Celery tasks: each takes ids, calls a service and returns a small summary; and how each is queued.

Without ``REDIS_URL`` they run in-process (eagerly) when queued; with it, a worker runs them
(``make worker``). Retries and time limits live here, not in the services. Tasks import services and
never the reverse: a service publishes an event (``games.events``) and the subscribers that follow it
(``games.subscribers``) queue the work here.

Queueing must never cost the scorekeeper their hand: it runs after the hand is stored, and if the broker
cannot be reached the failure is logged and the work is left for a catch-up task
(``games.standings_catch_up``, ``games.webhooks_catch_up``).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games import background, events, services
from games.models import League
from games.services.restore_uploads import upload_restore
from games.standings.services import league_standings_recompute as recompute_service
from games.standings.services import league_standings_update as update_service
from games.standings.services import stale_league_ids, standings_rebuild
from games.webhooks import deliveries, inprocess
from games.webhooks.delivery import attempt_delivery

logger = logging.getLogger(__name__)

# An update or a recompute writes the league's rows in one transaction that ends by recording what
# they count (the watermark), so it can always be run again:
# acknowledge only when done (a worker lost mid-task gives the task to another worker) and retry
# on database errors such as a lost connection or a serialization failure.
RECOMPUTE_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
    "soft_time_limit": 300,
    "time_limit": 360,
}


@shared_task(name="games.league_standings_update", **RECOMPUTE_OPTIONS)
def league_standings_update(league_id: int) -> dict[str, Any]:
    """Bring a league's standings, ratings and figures up to date after a result changed.

    Folds a newly finished result into the stored rows when it comes after all of them; recomputes
    what a correction, an undo or a result that finished out of order touches. The league's all-time
    rows, and those of the seasons concerned (and of any season new or whose dates changed).
    """
    try:
        summary = update_service(league_id=league_id)
    except League.DoesNotExist:
        logger.info("league %s is gone; no standings to update", league_id)
        return {"league_id": league_id, "missing": True}
    if summary.changed:
        events.publish(events.StandingsUpdated(league_id=league_id, computed_at=timezone.now()))
    return summary.as_dict()


@shared_task(name="games.league_standings_recompute", **RECOMPUTE_OPTIONS)
def league_standings_recompute(league_id: int) -> dict[str, Any]:
    """Recompute a league's standings, ratings and figures from its games (after its players were merged)."""
    try:
        summary = recompute_service(league_id=league_id)
    except League.DoesNotExist:
        logger.info("league %s is gone; no standings to recompute", league_id)
        return {"league_id": league_id, "missing": True}
    events.publish(events.StandingsUpdated(league_id=league_id, computed_at=timezone.now()))
    return summary.as_dict()


@shared_task(name="games.standings_rebuild", **{**RECOMPUTE_OPTIONS, "soft_time_limit": 3000, "time_limit": 3600})
def standings_rebuild_task(league_slug: str | None = None) -> list[dict[str, Any]]:
    """Recompute every league's standings (or one league's, by slug) from the stored hands."""
    return [summary.as_dict() for summary in standings_rebuild(league_slug=league_slug)]


@shared_task(name="games.standings_catch_up", acks_late=True, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=2, max_retries=5)
def standings_catch_up() -> list[int]:
    """Queue an update for every league whose standings are older than its latest result.

    The safety net for an update that could not be queued (the broker was down when a game
    finished). Celery beat runs it every five minutes (``CELERY_BEAT_SCHEDULE``); run it by hand
    after an outage.
    """
    # Provisional games whose window has passed are noted as changed results first, so they count now.
    services.provisional_release()
    stale = stale_league_ids()
    for league_id in stale:
        league_standings_update.delay(league_id)
    return stale


# A restore of a league of 100,000 games takes most of an hour on a small machine: longer than the broker's
# visibility timeout, after which a task not yet acknowledged would be handed to a second worker. So it is
# acknowledged when it starts (a second run would only wait for the first's transaction and find it done).
@shared_task(name="games.league_restore", acks_late=False, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=2, max_retries=3, soft_time_limit=4 * 3600, time_limit=4 * 3600 + 300)
def league_restore(restore_id: int) -> dict[str, Any]:
    """Restore a backup stored by its request (too big to restore there): check it whole, then write it in one
    transaction. Run again, it starts over unless it finished; what it writes is there once or not at all."""
    restore = upload_restore(restore_id)
    return {"restore_id": restore_id, "state": restore.state, "league_id": restore.league_id}


# --- webhooks ---------------------------------------------------------------------------------------


@shared_task(name="games.webhook_deliver", acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError, InterfaceError), retry_backoff=2, max_retries=5,
             soft_time_limit=120, time_limit=150)
def webhook_deliver(delivery_id: int, attempt: int = 1) -> dict[str, Any]:
    """Make attempt number ``attempt`` of a webhook delivery; queue the next one if it failed and one is due.

    Each attempt is its own task, so a retry waiting for its time holds no worker. An attempt already
    made (the task was delivered twice) is skipped.
    """
    retry_in = attempt_delivery(delivery_id, attempt)
    if retry_in is not None:
        queue_webhook_attempt(delivery_id, attempt=attempt + 1, delay=retry_in)
    return {"delivery_id": delivery_id, "attempt": attempt, "retry_in": retry_in}


@shared_task(name="games.webhooks_catch_up", acks_late=True, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=2, max_retries=5)
def webhooks_catch_up(grace_seconds: float | None = None) -> list[int]:
    """Queue every webhook attempt that is overdue: never queued (the broker was down when the event
    happened) or taken by a worker that died. Celery beat runs it every five minutes; a worker runs it when
    it connects to the broker with no grace (``grace_seconds=0``): whatever is due then may have been lost
    with the broker's data, and an attempt queued twice is still made once."""
    grace = deliveries.GRACE if grace_seconds is None else timedelta(seconds=grace_seconds)
    overdue = deliveries.overdue(grace=grace)
    for delivery_id, attempt in overdue:
        queue_webhook_attempt(delivery_id, attempt=attempt)
    return [delivery_id for delivery_id, _ in overdue]


# --- queueing (after the commit of what caused it: the subscribers call these) ------------------------


def queue_standings_update(league_id: int) -> None:
    """Queue the league's standings update (once the response is sent, without a broker)."""
    if league_standings_update.app.conf.task_always_eager:
        background.after_response(("league_standings_update", league_id),
                                  lambda: league_standings_update.delay(league_id))
        return
    try:
        league_standings_update.delay(league_id)
    except Exception:  # noqa: BLE001 - any broker failure; what changed is already stored
        logger.warning("could not queue the standings update for league %s; the catch-up task will do it",
                       league_id, exc_info=True)


def queue_standings_recompute(league_id: int) -> None:
    """Queue the recompute of the league's standings from its games."""
    try:
        league_standings_recompute.delay(league_id)
    except Exception:  # noqa: BLE001 - any broker failure; the change is already stored
        logger.warning("could not queue the standings recompute for league %s; the catch-up task will do it",
                       league_id, exc_info=True)


def queue_league_restore(restore_id: int) -> None:
    """Queue a stored backup's restore (once the response is sent, without a broker). If the broker cannot be
    reached it is restored in this process once the response is sent: an upload is never left waiting."""
    if league_restore.app.conf.task_always_eager:
        background.after_response(("league_restore", restore_id), lambda: league_restore.delay(restore_id))
        return
    try:
        league_restore.delay(restore_id)
    except Exception:  # noqa: BLE001 - any broker failure; the upload is stored
        logger.warning("could not queue the restore %s; restoring it in this process", restore_id, exc_info=True)
        background.after_response(("league_restore", restore_id), lambda: upload_restore(restore_id))


def queue_webhook_attempt(delivery_id: int, *, attempt: int, delay: float = 0) -> None:
    """Queue one attempt: for a Celery worker, or for the in-process sender where tasks run in-process."""
    if webhook_deliver.app.conf.task_always_eager:
        inprocess.submit(delivery_id, attempt=attempt, delay=delay)
        return
    try:
        webhook_deliver.apply_async((delivery_id, attempt), countdown=delay or None)
    except Exception:  # noqa: BLE001 - any broker failure; the catch-up task queues it later
        logger.warning("could not queue webhook delivery %s; the catch-up task will", delivery_id, exc_info=True)

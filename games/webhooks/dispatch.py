"""From an event to deliveries: after the transaction commits, one delivery per endpoint that asked for it.

Nothing here may cost a scorekeeper their hand: everything runs after the hand is committed, and
any failure (the database, the broker) is logged and left behind. A delivery that could not be
queued is picked up by the catch-up task (``games.webhooks_catch_up``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.models import WebhookDelivery
from games.services import statements

from .payloads import envelope

logger = logging.getLogger(__name__)


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


def emit(league_id: int | None, event: str, data: Callable[[], dict[str, Any]]) -> None:
    """Send ``event`` to the league's endpoints that asked for it, once the current transaction commits.

    ``data`` builds the event's ``data`` after the commit, and only if some endpoint wants it.
    """
    if league_id is None:
        return
    transaction.on_commit(lambda: fan_out(league_id, event, data))


def fan_out(league_id: int, event: str, data: Callable[[], dict[str, Any]]) -> list[int]:
    try:
        endpoints = [endpoint for endpoint in statements.active_webhooks(league_id) if event in endpoint.events]
        if not endpoints:
            return []
        payload = envelope(event, data())
        deliveries = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(endpoint=endpoint, message_id=new_message_id(), event=event, payload=payload)
            for endpoint in endpoints
        )
    except Exception:  # noqa: BLE001 - the write that caused the event is committed; never fail it
        logger.exception("could not record the %s webhooks of league %s", event, league_id)
        return []
    ids = [delivery.pk for delivery in deliveries]
    for delivery_id in ids:
        send(delivery_id, attempt=1)
    return ids


def send(delivery_id: int, *, attempt: int, delay: float = 0) -> None:
    """Queue one attempt: for a Celery worker, or for the in-process sender where tasks run in-process."""
    from games import tasks

    if tasks.webhook_deliver.app.conf.task_always_eager:
        from . import inprocess

        inprocess.submit(delivery_id, attempt=attempt, delay=delay)
        return
    try:
        tasks.webhook_deliver.apply_async((delivery_id, attempt), countdown=delay or None)
    except Exception:  # noqa: BLE001 - any broker failure; the catch-up task queues it later
        logger.warning("could not queue webhook delivery %s; the catch-up task will", delivery_id, exc_info=True)

"""The delivery log: which deliveries an event makes, who may make an attempt, and what each attempt gave.

A delivery is a row per event and endpoint; its attempts are noted on it. Whoever sends (a Celery task, or
the in-process sender) first claims the attempt (:func:`claim`), so an attempt handed to two senders is made
once, then notes the answer (:func:`note_answer`), which says when to try again.

Nothing here may cost a scorekeeper their hand: deliveries are made after the hand is committed, and a
failure (the database) is logged and left behind. A delivery that could not be queued is picked up by the
catch-up task (``games.webhooks_catch_up``, from :func:`overdue`).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import statements
from games.models import TEST_EVENT, WebhookDelivery, WebhookEndpoint

from .payloads import envelope

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answer:
    """What one attempt gave: the receiver's status code (None if there was no answer) or why it failed."""

    status_code: int | None
    error: str = ""
    response: str = ""
    milliseconds: int = 0

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


def for_event(league_id: int, event: str, data: Callable[[], dict[str, Any]]) -> list[int]:
    """Store a delivery of ``event`` to each of the league's active endpoints that asked for it; their ids.

    ``data`` builds the event's ``data``, and only if some endpoint wants it.
    """
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
    return [delivery.pk for delivery in deliveries]


def for_test(endpoint: WebhookEndpoint, data: dict[str, Any]) -> WebhookDelivery:
    """Store a test event's delivery to one endpoint (tried once)."""
    return WebhookDelivery.objects.create(endpoint=endpoint, message_id=new_message_id(), event=TEST_EVENT,
                                          payload=envelope(TEST_EVENT, data))


def stale_claim() -> timedelta:
    """How long a sender may hold a delivery before another may take it (it must have died)."""
    return timedelta(seconds=3 * settings.WEBHOOK_TIMEOUT + 60)


def claim(*, delivery_id: int, attempt: int) -> WebhookDelivery | None:
    """Take the delivery for attempt number ``attempt``; None if that attempt was made or is being made.

    A conditional update, so two senders given the same attempt (a task delivered twice) send it once.
    """
    now = timezone.now()
    claimable = (Q(status__in=[WebhookDelivery.Status.PENDING, WebhookDelivery.Status.RETRYING])
                 | Q(status=WebhookDelivery.Status.SENDING, claimed_at__lt=now - stale_claim()))
    taken = WebhookDelivery.objects.filter(claimable, pk=delivery_id, attempt_count=attempt - 1).update(
        status=WebhookDelivery.Status.SENDING, claimed_at=now)
    if not taken:
        return None
    return WebhookDelivery.objects.select_related("endpoint__league").get(pk=delivery_id)


def note_answer(*, delivery: WebhookDelivery, answer: Answer, final: bool = False) -> float | None:
    """Note an attempt's answer; the seconds until the next attempt if it failed and one is due, else None.

    Retries follow ``WEBHOOK_RETRY_DELAYS``; a test event is tried once.
    """
    now = timezone.now()
    delivery.attempts = [*delivery.attempts, {
        "at": now.isoformat().replace("+00:00", "Z"), "status_code": answer.status_code, "error": answer.error,
        "response": answer.response, "milliseconds": answer.milliseconds,
    }]
    delivery.attempt_count += 1
    delivery.claimed_at = None
    delays = settings.WEBHOOK_RETRY_DELAYS
    retry_in: float | None = None
    if answer.succeeded:
        delivery.status = WebhookDelivery.Status.SUCCEEDED
        delivery.delivered_at = now
    elif not final and delivery.event != TEST_EVENT and delivery.attempt_count <= len(delays):
        retry_in = delays[delivery.attempt_count - 1]
        delivery.status = WebhookDelivery.Status.RETRYING
        delivery.next_attempt_at = now + timedelta(seconds=retry_in)
    else:
        delivery.status = WebhookDelivery.Status.FAILED
    delivery.save(update_fields=["attempts", "attempt_count", "claimed_at", "status", "delivered_at",
                                 "next_attempt_at"])
    return retry_in


# An attempt due this long ago and not made is overdue: its task was never queued, or is lost.
GRACE = timedelta(minutes=2)


def overdue(*, limit: int = 500, grace: timedelta = GRACE) -> list[tuple[int, int]]:
    """(delivery id, next attempt) of deliveries whose attempt is overdue: due more than ``grace`` ago and
    never queued (the broker was down), or taken by a sender that died. For the catch-up task."""
    now = timezone.now()
    late = (Q(status__in=[WebhookDelivery.Status.PENDING, WebhookDelivery.Status.RETRYING],
              next_attempt_at__lte=now - grace)
            | Q(status=WebhookDelivery.Status.SENDING, claimed_at__lt=now - stale_claim()))
    rows = WebhookDelivery.objects.filter(late).order_by("next_attempt_at").values_list("pk", "attempt_count")
    return [(pk, count + 1) for pk, count in rows[:limit]]

"""A league's webhooks: registering endpoints (owners only), test deliveries, and recording each attempt."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.idempotency import row_once
from games.models import TEST_EVENT, WEBHOOK_EVENTS, League, WebhookDelivery, WebhookEndpoint
from games.rules import shown
from games.webhooks.addresses import checked_target

# Enough for a league's integrations; each event is sent to every endpoint that asked for it.
MAX_ENDPOINTS = 10
MAX_DESCRIPTION = 200


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and base64 of 24 random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def check_manager(league: League, by) -> None:
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners manage its webhooks")


def checked_events(events: Any) -> list[str]:
    if not isinstance(events, list | tuple) or not events:
        raise InvalidInput(f"choose at least one event: {', '.join(WEBHOOK_EVENTS)}", field="events")
    for event in events:
        if event not in WEBHOOK_EVENTS:
            raise InvalidInput(f"unknown event {shown(event)}; choose from {', '.join(WEBHOOK_EVENTS)}",
                               field="events")
    return [event for event in WEBHOOK_EVENTS if event in events]


def checked_description(description: Any) -> str:
    if not isinstance(description, str):
        raise InvalidInput("the description must be text", field="description")
    description = description.strip()
    if len(description) > MAX_DESCRIPTION:
        raise InvalidInput(f"a description can be at most {MAX_DESCRIPTION} characters", field="description")
    return description


def checked_url(league: League, url: Any, *, other_than: WebhookEndpoint | None = None) -> str:
    checked_target(url)
    url = url.strip()
    taken = WebhookEndpoint.objects.filter(league=league, url=url)
    if other_than is not None:
        taken = taken.exclude(pk=other_than.pk)
    if taken.exists():
        raise InvalidInput("this address is already registered for the league; change its events instead",
                           field="url")
    return url


def webhook_create(*, league: League, url: str, events: Iterable[str], by, description: str = "",
                   idempotency_key: str | None = None) -> WebhookEndpoint:
    """Register an endpoint for the league's events, with a new signing secret.

    Refused for anyone but the league's owners, for an address that is not http(s) (https only in
    production) or that resolves to a non-public address in production, and past ten endpoints.
    """
    request = {"league": league.pk, "url": url, "events": events, "description": description}
    return row_once(
        user=by, scope=f"league:{league.pk}:webhooks", key=idempotency_key, request=request,
        rows=WebhookEndpoint.objects.all(),
        write=lambda: create(league=league, url=url, events=events, by=by, description=description),
    )


@transaction.atomic
def create(*, league: League, url, events, by, description) -> WebhookEndpoint:
    check_manager(league, by)
    League.objects.select_for_update().filter(pk=league.pk).first()  # one count at a time
    if WebhookEndpoint.objects.filter(league=league).count() >= MAX_ENDPOINTS:
        raise InvalidInput(f"a league can have at most {MAX_ENDPOINTS} webhook endpoints; remove one first",
                           field="url")
    return WebhookEndpoint.objects.create(
        league=league, url=checked_url(league, url), events=checked_events(events),
        description=checked_description(description), secret=new_secret(), created_by=by,
    )


@transaction.atomic
def webhook_update(*, endpoint: WebhookEndpoint, by, url: str | None = None, events: Iterable[str] | None = None,
                   description: str | None = None, is_active: bool | None = None) -> WebhookEndpoint:
    """Change an endpoint's address, events or description, or pause (``is_active`` false) and resume it."""
    check_manager(endpoint.league, by)
    if url is not None:
        endpoint.url = checked_url(endpoint.league, url, other_than=endpoint)
    if events is not None:
        endpoint.events = checked_events(events)
    if description is not None:
        endpoint.description = checked_description(description)
    if is_active is not None:
        endpoint.is_active = bool(is_active)
    endpoint.save(update_fields=["url", "events", "description", "is_active"])
    return endpoint


@transaction.atomic
def webhook_delete(*, endpoint: WebhookEndpoint, by) -> None:
    """Remove the endpoint and its delivery log; nothing more is sent to it."""
    check_manager(endpoint.league, by)
    endpoint.delete()


@transaction.atomic
def webhook_test(*, endpoint: WebhookEndpoint, by) -> WebhookDelivery:
    """Send the endpoint a ``webhook.test`` event now (one attempt, no retries); it shows in the delivery log."""
    from games.webhooks.dispatch import new_message_id, send
    from games.webhooks.payloads import envelope, test_event

    check_manager(endpoint.league, by)
    if not endpoint.is_active:
        raise InvalidInput("the endpoint is paused; resume it to send a test", field="is_active")
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, message_id=new_message_id(), event=TEST_EVENT,
        payload=envelope(TEST_EVENT, test_event(endpoint.league, by=by)),
    )
    transaction.on_commit(lambda: send(delivery.pk, attempt=1))
    return delivery


# --- attempts (the senders call these) ------------------------------------------------------------


def stale_claim() -> timedelta:
    """How long a sender may hold a delivery before another may take it (it must have died)."""
    return timedelta(seconds=3 * settings.WEBHOOK_TIMEOUT + 60)


def webhook_delivery_claim(*, delivery_id: int, attempt: int) -> WebhookDelivery | None:
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


def webhook_delivery_record(*, delivery: WebhookDelivery, answer, final: bool = False) -> float | None:
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


def overdue_deliveries(*, limit: int = 500, grace: timedelta = GRACE) -> list[tuple[int, int]]:
    """(delivery id, next attempt) of deliveries whose attempt is overdue: due more than ``grace`` ago and
    never queued (the broker was down), or taken by a sender that died. For the catch-up task."""
    now = timezone.now()
    overdue = (Q(status__in=[WebhookDelivery.Status.PENDING, WebhookDelivery.Status.RETRYING],
                 next_attempt_at__lte=now - grace)
               | Q(status=WebhookDelivery.Status.SENDING, claimed_at__lt=now - stale_claim()))
    rows = WebhookDelivery.objects.filter(overdue).order_by("next_attempt_at").values_list("pk", "attempt_count")
    return [(pk, count + 1) for pk, count in rows[:limit]]

"""A league's webhooks: registering endpoints (owners only) and test deliveries.

The delivery log (what each event makes, each attempt and its answer) is kept by ``games.webhooks.deliveries``.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.events import WebhookTestRequested, publish
from games.idempotency import row_once
from games.models import WEBHOOK_EVENTS, League, WebhookDelivery, WebhookEndpoint
from games.rules import shown
from games.webhooks import deliveries, payloads
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
    check_manager(endpoint.league, by)
    if not endpoint.is_active:
        raise InvalidInput("the endpoint is paused; resume it to send a test", field="is_active")
    delivery = deliveries.for_test(endpoint, payloads.test_event(endpoint.league, by=by))
    publish(WebhookTestRequested(delivery_id=delivery.pk))
    return delivery

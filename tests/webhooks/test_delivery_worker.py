"""Webhooks sent by a real Celery worker over a real Redis, on PostgreSQL, to a real receiver on loopback that
verifies every signature with the standardwebhooks package: an integrator following a live game.

The worker runs in this process (``celery.contrib.testing.worker.start_worker``) in threads with their
own database connections, so these tests commit for real. Skipped on a bare machine; CI runs them.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from django.db import close_old_connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import WebhookDelivery
from games.services import game_start

pytestmark = pytest.mark.django_db(transaction=True)

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


@contextmanager
def live_worker_running():
    from celery.contrib.testing.worker import start_worker

    from scorekeeper.celery import app

    app.conf.task_always_eager = False
    try:
        app.control.purge()
        with start_worker(app, pool="threads", concurrency=4, perform_ping_check=False, loglevel="WARNING",
                          shutdown_timeout=30) as worker:
            yield worker
    finally:
        app.conf.task_always_eager = True
        close_old_connections()


@pytest.fixture
def live_worker(redis_url, postgres):
    with live_worker_running() as worker:
        yield worker


def scorer_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def delivered(count: int, event: str | None = None, timeout: float = 30.0) -> list[WebhookDelivery]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(WebhookDelivery.objects.filter(**({"event": event} if event else {})).order_by("id"))
        if len(rows) >= count and all(row.status == WebhookDelivery.Status.SUCCEEDED for row in rows):
            return rows
        time.sleep(0.1)
    raise AssertionError(list(WebhookDelivery.objects.values("event", "status", "attempts")))


def test_an_integrator_receives_signed_events_of_a_live_game(league, owner, seats, endpoint, receiver,
                                                             live_worker):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 100})
    client = scorer_client(owner)
    for number in (1, 2):
        response = client.post(f"/api/v1/games/{game.pk}/hands/", {**HAND, "expected_number": number},
                               format="json")
        assert response.status_code == 201, response.content

    receiver.wait_for(1, "standings.updated", timeout=30)
    recorded = receiver.wait_for(2, "hand.recorded")
    assert sorted(event["data"]["hand"]["number"] for event in recorded) == [1, 2]
    # Each event is a delivery of its own, in whatever order the worker sends them: wait for this one too.
    assert receiver.wait_for(1, "game.finished")[0]["data"]["game"]["winner"] == "NS"
    rows = delivered(4)
    assert {row.event for row in rows} == {"hand.recorded", "game.finished", "standings.updated"}
    assert receiver.refused == []


def test_the_worker_retries_with_backoff(settings, league, owner, seats, endpoint, receiver, live_worker):
    # The worker starts after the league's players exist: their standings are computed in-process, and no
    # standings.updated delivery (which could take the receiver's 502) races the hand's.
    settings.WEBHOOK_RETRY_DELAYS = [1, 1]
    receiver.answers = [502]
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})
    response = scorer_client(owner).post(f"/api/v1/games/{game.pk}/hands/", HAND, format="json")
    assert response.status_code == 201

    (delivery,) = delivered(1, "hand.recorded")
    assert [attempt["status_code"] for attempt in delivery.attempts] == [502, 200]
    first, second = (attempt["at"] for attempt in delivery.attempts)
    assert second > first
    assert [item["status"] for item in receiver.received if item["event"]["type"] == "hand.recorded"] == [502, 200]


def test_the_test_button_reaches_the_receiver(live_worker, endpoint, owner, receiver):
    client = scorer_client(owner)
    response = client.post(f"/api/v1/leagues/{endpoint.league_id}/webhooks/{endpoint.pk}/test/")
    assert response.status_code == 202, response.content

    (event,) = receiver.wait_for(1, "webhook.test")
    assert event["data"]["league"]["id"] == endpoint.league_id
    assert delivered(1)[0].message_id == response.json()["message_id"]


def test_a_worker_that_connects_sends_what_the_broker_lost(redis_url, postgres, endpoint, receiver):
    """A delivery recorded while the broker was down (or whose task a FLUSHALL erased) goes out as soon as a
    worker connects, not at Celery beat's next catch-up (no beat runs here)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.webhooks.deliveries import new_message_id
    from games.webhooks.payloads import envelope, test_event

    owed = WebhookDelivery.objects.create(
        endpoint=endpoint, message_id=new_message_id(), event="webhook.test",
        payload=envelope("webhook.test", test_event(endpoint.league, by=None)),
        next_attempt_at=timezone.now() - timedelta(seconds=1),  # due a moment ago, its task lost
    )
    with live_worker_running():
        (event,) = receiver.wait_for(1, "webhook.test", timeout=30)
    assert event["data"]["league"]["id"] == endpoint.league_id
    owed.refresh_from_db()
    assert owed.status == WebhookDelivery.Status.SUCCEEDED

"""Deliveries where no Celery worker runs (development without Redis): the in-process sender thread.

A real receiver on loopback verifies every signature with the standardwebhooks package. These tests
commit for real (``transaction=True``), as the sender thread reads the deliveries on its own connection.
"""

from __future__ import annotations

import socket
import time

import pytest

from games.models import WebhookDelivery
from games.services import game_start, hand_correct, hand_record, hand_undo
from games.webhooks import inprocess

pytestmark = pytest.mark.django_db(transaction=True)

# NS bid 7 and take 9: +72 in a game to 100, twice over.
HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


def settled(delivery_count: int, timeout: float = 20.0) -> list[WebhookDelivery]:
    """Every delivery, once there are ``delivery_count`` and none is still waiting for an attempt."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inprocess.wait_until_idle()
        rows = list(WebhookDelivery.objects.order_by("id"))
        done = {WebhookDelivery.Status.SUCCEEDED, WebhookDelivery.Status.FAILED}
        if len(rows) >= delivery_count and all(row.status in done for row in rows):
            return rows
        time.sleep(0.05)
    raise AssertionError(list(WebhookDelivery.objects.values("event", "status", "attempts")))


def test_a_live_game_reaches_the_receiver_signed(league, owner, seats, endpoint, receiver):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 100})
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=HAND, by=owner)

    receiver.wait_for(1, "standings.updated")
    receiver.wait_for(2, "hand.recorded")
    kinds = [event["type"] for event in receiver.events()]
    assert kinds.count("hand.recorded") == 2 and kinds.count("game.finished") == 1
    recorded = receiver.events("hand.recorded")
    assert [event["data"]["hand"]["number"] for event in recorded] == [1, 2]
    assert recorded[0]["data"]["hand"]["totals"] == {"NS": 72, "EW": -50}
    assert recorded[0]["data"]["hand"]["entered_by"] == "Owner D."  # a display name, not the login name
    finished = receiver.events("game.finished")[0]["data"]["game"]
    assert finished["status"] == "finished" and finished["winner"] == "NS" and finished["id"] == game.pk
    assert finished["seats"]["N"] == {"id": seats["N"], "name": "Ann"}
    standings = receiver.events("standings.updated")[0]["data"]
    assert standings["league"] == {"id": league.pk, "slug": league.slug, "name": league.name}

    rows = settled(4)
    assert {row.status for row in rows} == {WebhookDelivery.Status.SUCCEEDED}
    ids = {item["headers"]["webhook-id"] for item in receiver.received}
    assert ids == {row.message_id for row in rows}


def test_corrections_and_undos_are_sent_as_hand_corrected(league, owner, seats, endpoint, receiver):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})
    hand_record(game=game, record=HAND, by=owner)
    fixed = {**HAND, "tricks": {"N": 4, "E": 2, "S": 4, "W": 3}}
    hand_correct(game=game, number=1, record=fixed, by=owner, reason="E took the last trick")
    hand_undo(game=game, by=owner, reason="wrong table")

    changes = [event["data"]["change"] for event in receiver.wait_for(2, "hand.corrected")]
    assert [change["action"] for change in changes] == ["correct", "undo"]
    assert changes[0]["record"] == fixed and changes[0]["previous_record"] == HAND
    assert changes[0]["reason"] == "E took the last trick" and changes[1]["record"] is None
    assert receiver.wait_for(2, "hand.corrected")[1]["data"]["game"]["hand_count"] == 0


def test_a_failing_receiver_is_retried_until_it_answers(settings, league, owner, seats, endpoint, receiver):
    settings.WEBHOOK_RETRY_DELAYS = [0.2, 0.2, 0.2]
    receiver.answers = [500, 503]
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})
    hand_record(game=game, record=HAND, by=owner)

    receiver.wait_for(1, "hand.recorded")
    (delivery,) = settled(1)
    assert delivery.status == WebhookDelivery.Status.SUCCEEDED
    assert [attempt["status_code"] for attempt in delivery.attempts] == [500, 503, 200]
    assert delivery.attempts[0]["error"] == "answered 500" and delivery.attempts[0]["response"] == "not now"
    # Every attempt carries the same webhook-id, so the receiver can tell retries from new events.
    assert {item["headers"]["webhook-id"] for item in receiver.received} == {delivery.message_id}


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_endpoint_never_holds_up_recording(settings, league, owner, seats):
    from games.services import webhook_create

    settings.WEBHOOK_RETRY_DELAYS = [0.1]
    port = closed_port()
    webhook_create(league=league, url=f"http://127.0.0.1:{port}/hooks", events=["hand.recorded"], by=owner)
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})

    result = hand_record(game=game, record=HAND, by=owner)

    assert result.hand.number == 1
    (delivery,) = settled(1)
    assert delivery.status == WebhookDelivery.Status.FAILED and delivery.attempt_count == 2
    error = delivery.attempts[0]["error"]
    assert error.startswith(f"could not connect to 127.0.0.1:{port}") and "refused" in error.lower()
    assert delivery.attempts[0]["status_code"] is None


def test_a_paused_endpoint_is_sent_nothing(league, owner, seats, endpoint, receiver):
    from games.services import webhook_update

    webhook_update(endpoint=endpoint, by=owner, is_active=False)
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})
    hand_record(game=game, record=HAND, by=owner)
    inprocess.wait_until_idle()
    assert WebhookDelivery.objects.count() == 0 and receiver.received == []


def test_a_club_nights_start_rounds_and_end_reach_the_receiver(league, owner, endpoint, receiver):
    from games.services import night_end, night_round_start, night_start, player_create
    from games.services.nights import night_check_in

    night = night_start(league=league, by=owner, game_type="smudge", hands=4, rounds=2, name="Friday night")
    for name in ("Ann", "Ben", "Cid", "Dee", "Eve"):
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=league))
    night_round_start(night=night, by=owner)
    night_end(night=night, by=owner, end_tables=True)

    started = receiver.wait_for(1, "night.started")[0]["data"]
    assert started["night"]["name"] == "Friday night" and started["night"]["status"] == "checking_in"
    round_ = receiver.wait_for(1, "round.started")[0]["data"]["round"]
    assert round_["number"] == 1 and round_["sitting_out"] == [{"id": round_["sitting_out"][0]["id"], "name": "Eve"}]
    [table] = round_["tables"]
    # By seat: a JSON object's keys keep no order (PostgreSQL's jsonb stores the delivery's body sorted).
    assert {seat: player["name"] for seat, player in table["seats"].items()} == {
        "N": "Ann", "E": "Ben", "S": "Cid", "W": "Dee"}
    finished = receiver.wait_for(1, "night.finished")[0]["data"]["night"]
    assert finished["status"] == "finished" and finished["finished_at"] is not None

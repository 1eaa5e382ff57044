"""Without a broker the standings update runs in the web process, but only once the answer has been sent."""

from __future__ import annotations

import json

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory
from rest_framework.authtoken.models import Token

from games import background
from games.models import Standing
from games.services import game_start, hand_record

from .conftest import ONE_HAND


def test_work_queued_outside_a_request_runs_at_once():
    done = []
    background.after_response("key", lambda: done.append(1))
    assert done == [1]


@pytest.fixture
def request_signals(db):
    """A request's start and end as the background work sees them, in a test's transaction as a request in the
    test client is, and without Django closing database connections (as its test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_work_queued_twice_in_one_request_runs_once_when_it_ends(request_signals):
    done = []
    request_started.send(sender=None)
    background.after_response("key", lambda: done.append("first"))
    background.after_response("key", lambda: done.append("second"))
    background.after_response("other", lambda: done.append("other"))
    assert done == []
    request_finished.send(sender=None)
    assert done == ["first", "other"]


def test_failing_work_is_logged_and_the_rest_still_runs(caplog, request_signals):
    done = []
    request_started.send(sender=None)
    background.after_response("broken", lambda: 1 / 0)
    background.after_response("fine", lambda: done.append("fine"))
    request_finished.send(sender=None)
    assert done == ["fine"]
    assert "broken" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_the_finishing_hand_is_answered_before_the_standings_are_updated(owner, league, seats, monkeypatch,
                                                                         settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 100})
    hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    token = Token.objects.create(user=owner).key
    happened: list[str] = []

    from games import tasks

    real_update = tasks.update_service

    def update(**kwargs):
        happened.append("standings updated")
        return real_update(**kwargs)

    monkeypatch.setattr(tasks, "update_service", update)
    request = RequestFactory().post(f"/api/v1/games/{game.pk}/hands/", data=json.dumps(ONE_HAND["spades"]["NS"]),
                                    content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}",
                                    HTTP_HOST="127.0.0.1")
    statuses = []
    response = WSGIHandler()(request.environ, lambda status, headers: statuses.append(status))
    body = b"".join(response)  # what the server writes to the scorekeeper
    happened.append("answer sent")

    assert statuses == ["201 Created"] and json.loads(body)["status"] == "finished"
    assert not Standing.objects.filter(league=league).exists()
    response.close()  # the server is done with the response: request_finished

    assert happened == ["answer sent", "standings updated"]
    assert Standing.objects.filter(league=league, game_type="spades").count() == 6

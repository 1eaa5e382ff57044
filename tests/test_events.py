"""Events: a service says what happened; its subscribers run once the transaction commits, never for a rollback."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass

import pytest
from django.db import transaction

from games import events


@dataclass(frozen=True)
class SomethingHappened:
    what: str


@pytest.fixture
def heard(monkeypatch):
    monkeypatch.setattr(events, "subscribers", {})
    out: list[str] = []
    events.subscribe(SomethingHappened, lambda event: out.append(f"first: {event.what}"))
    events.subscribe(SomethingHappened, lambda event: out.append(f"second: {event.what}"))
    return out


@pytest.mark.django_db
def test_subscribers_run_after_the_commit_in_the_order_they_subscribed(heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        events.publish(SomethingHappened("a hand"))
        assert heard == []
    assert heard == ["first: a hand", "second: a hand"]


@pytest.mark.django_db
def test_a_write_rolled_back_tells_nobody(heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                events.publish(SomethingHappened("a hand"))
                raise RuntimeError("the write failed")
        except RuntimeError:
            pass
        events.publish(SomethingHappened("the next hand"))
    assert heard == ["first: the next hand", "second: the next hand"]


@pytest.mark.django_db
def test_subscribing_twice_runs_a_subscriber_once(monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(events, "subscribers", {})
    out: list[str] = []

    def note(event):
        out.append(event.what)

    events.subscribe(SomethingHappened, note)
    events.subscribe(SomethingHappened, note)
    with django_capture_on_commit_callbacks(execute=True):
        events.publish(SomethingHappened("once"))
    assert out == ["once"]


def test_every_event_has_a_subscriber_once_the_app_is_ready():
    published = [cls for _, cls in inspect.getmembers(events, inspect.isclass)
                 if dataclasses.is_dataclass(cls) and cls.__module__ == events.__name__]
    assert published
    assert [cls.__name__ for cls in published if not events.subscribers.get(cls)] == []

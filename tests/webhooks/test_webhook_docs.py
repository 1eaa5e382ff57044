"""docs/webhooks.md names every event an endpoint can ask for, and its examples of the club nights' events have
the shape of what is sent."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.models import TEST_EVENT, WEBHOOK_EVENTS
from games.services import night_check_in, night_end, night_round_start, night_start, player_create
from games.webhooks import payloads

DOC = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()


def documented_events() -> list[str]:
    """The events of the page's table of events, in its order."""
    table = DOC.split("## Events", 1)[1].split("\n\n", 2)[1]
    return re.findall(r"^\| `([a-z]+\.[a-z]+)` \|", table, flags=re.M)


def examples() -> dict[str, dict]:
    """The page's JSON examples, by event."""
    bodies = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, flags=re.S)]
    return {body["type"]: body for body in bodies}


def shape(value):
    """The keys of every object in ``value``, nested (a list by its first item), without the values."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return None


def test_the_page_lists_every_event_an_endpoint_can_ask_for():
    assert documented_events() == [*WEBHOOK_EVENTS, TEST_EVENT]


@pytest.mark.django_db
def test_the_club_night_examples_have_the_shape_of_what_is_sent(league, owner):
    night = night_start(league=league, by=owner, game_type="smudge", hands=4, rounds=2, name="Friday night")
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve"):
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=league))
    sent = {"night.started": payloads.envelope("night.started", payloads.night_event(night))}
    round_ = night_round_start(night=night, by=owner)
    night.refresh_from_db()
    sent["round.started"] = payloads.envelope("round.started", payloads.round_started(night, round_))
    sent["night.finished"] = payloads.envelope("night.finished", payloads.night_event(
        night_end(night=night, by=owner)))
    shown = examples()
    for event, body in sent.items():
        assert shape(shown[event]) == shape(json.loads(json.dumps(body, default=str))), event
        assert shown[event]["data"]["night"]["status"] == body["data"]["night"]["status"]

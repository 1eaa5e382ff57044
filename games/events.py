"""What happened, for whoever follows it.

A service says what happened and nothing more: ``events.publish(events.HandRecorded(game=game, hand=hand))``.
It does not know who listens. Every subscriber of the event's class runs once the current transaction
commits (at once outside one): it never reads a row that is not there yet, and a write that is rolled
back tells nobody. This module imports nothing of the project, so any layer may publish.

Who listens is written down in one place, ``games/subscribers.py``, and wired when the app is ready
(``GamesConfig.ready``): the standings (a league's update, queued as a task) and the webhooks (a delivery to
each endpoint that asked for the event).

To add an event: a frozen dataclass below, named for what happened, published by the service that made it
happen (inside its transaction). To follow one: a function taking the event in ``games/subscribers.py`` and
a ``subscribe`` line in its ``connect()``. A subscriber runs after the commit, outside the transaction: it
must never fail the write that caused it (log and leave it to a catch-up instead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import transaction

if TYPE_CHECKING:
    from games.models import Game, Hand, HandCheck, HandRevision, League, Night, NightRound

Event = TypeVar("Event")

subscribers: dict[type, list[Callable[[Any], None]]] = {}


def subscribe(event_type: type[Event], subscriber: Callable[[Event], None]) -> None:
    """Run ``subscriber(event)`` after the commit of every transaction that publishes an ``event_type``
    (subscribing twice changes nothing)."""
    listening = subscribers.setdefault(event_type, [])
    if subscriber not in listening:
        listening.append(subscriber)


def publish(event: object) -> None:
    """Tell the event's subscribers, each once the current transaction commits, in the order they subscribed."""
    for subscriber in subscribers.get(type(event), ()):
        transaction.on_commit(partial(subscriber, event))


# --- games and hands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandRecorded:
    game: Game
    hand: Hand


@dataclass(frozen=True)
class HandCorrected:
    """A hand was corrected, or the last one taken back (``revision.action``). Published before the game's new
    state is stored: a subscriber, running after the commit, sees the game settled."""

    game: Game
    revision: HandRevision


@dataclass(frozen=True)
class HandConfirmed:
    """A player of the other side confirmed a hand (``check``), or a correction made it read as they said."""

    game: Game
    hand: Hand
    check: HandCheck


@dataclass(frozen=True)
class HandDisputed:
    """A player of the other side disputed a hand: ``check.record`` is what they say it was."""

    game: Game
    hand: Hand
    check: HandCheck


@dataclass(frozen=True)
class GameFinished:
    game: Game


@dataclass(frozen=True)
class GameResultChanged:
    """A game finished, or a correction or undo touched a game that is (or was) finished: its league's standings,
    ratings and figures change, even with the same winner."""

    game: Game


# --- leagues --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueSeasonsChanged:
    """A season of the league was created or its dates changed: that season's rows are recomputed."""

    league: League


@dataclass(frozen=True)
class LeaguePlayersChanged:
    """Players of the league were merged, or the league was restored: everything is recomputed from its games."""

    league: League


@dataclass(frozen=True)
class RestoreUploaded:
    """A backup too big to restore in its request was stored: it is to be restored in the background."""

    restore_id: int


@dataclass(frozen=True)
class StandingsUpdated:
    """The league's stored standings, ratings and figures changed (at ``computed_at``)."""

    league_id: int
    computed_at: datetime


# --- club nights ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightStarted:
    """An organiser started a club night: players check in to it."""

    night: Night


@dataclass(frozen=True)
class RoundStarted:
    """A round of a night began: its tables are seated and their games started."""

    night: Night
    round: NightRound


@dataclass(frozen=True)
class NightFinished:
    """The night was ended: no more rounds (a table still playing may finish its game)."""

    night: Night


# --- webhooks -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WebhookTestRequested:
    """An owner asked for a test event to an endpoint: the delivery is stored and due now."""

    delivery_id: int

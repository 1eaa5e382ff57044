"""Who follows what happens: each event (``games.events``) and what it sets going, in one place.

Wired once, when the app is ready (``GamesConfig.ready``). Each subscriber runs after the commit of the
transaction that published its event and queues the work (``games.tasks``): it never fails that write.

- a game's result, a league's seasons or its players change: the league's standings, ratings and figures
  are brought up to date (docs/standings.md);
- a hand recorded, corrected, confirmed or disputed, a game finished, the standings updated, a club night started,
  one of its rounds started, the night finished: a webhook delivery to each of the league's endpoints that asked
  for the event (docs/webhooks.md), its body built only if one did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import events, tasks
from games.models import League
from games.webhooks import deliveries, payloads

# --- standings ----------------------------------------------------------------------------------------


def standings_follow_result(event: events.GameResultChanged) -> None:
    if event.game.league_id is not None:
        tasks.queue_standings_update(event.game.league_id)


def standings_follow_seasons(event: events.LeagueSeasonsChanged) -> None:
    tasks.queue_standings_update(event.league.pk)


def standings_follow_players(event: events.LeaguePlayersChanged) -> None:
    tasks.queue_standings_recompute(event.league.pk)


def restore_in_background(event: events.RestoreUploaded) -> None:
    tasks.queue_league_restore(event.restore_id)


# --- webhooks -----------------------------------------------------------------------------------------


def webhooks_send(league_id: int | None, event: str, data: Callable[[], dict[str, Any]]) -> None:
    """Store and queue a delivery of ``event`` to each of the league's endpoints that asked for it."""
    if league_id is None:
        return
    for delivery_id in deliveries.for_event(league_id, event, data):
        tasks.queue_webhook_attempt(delivery_id, attempt=1)


def without_webhooks(game: Any) -> bool:
    """Whether the game's league was read with it and has no active webhook endpoint (recording a hand reads
    ``has_webhooks`` with the game, ``games.statements.read_for_write``): nobody to tell, and no statement to
    find that out."""
    return type(game).league.is_cached(game) and getattr(game.league, "has_webhooks", None) is False


def webhooks_hand_recorded(event: events.HandRecorded) -> None:
    if without_webhooks(event.game):
        return
    webhooks_send(event.game.league_id, "hand.recorded", lambda: payloads.hand_recorded(event.game, event.hand))


def webhooks_hand_corrected(event: events.HandCorrected) -> None:
    webhooks_send(event.game.league_id, "hand.corrected",
                  lambda: payloads.hand_corrected(event.game, event.revision))


def webhooks_hand_confirmed(event: events.HandConfirmed) -> None:
    webhooks_send(event.game.league_id, "hand.confirmed",
                  lambda: payloads.hand_checked(event.game, event.hand, event.check))


def webhooks_hand_disputed(event: events.HandDisputed) -> None:
    webhooks_send(event.game.league_id, "hand.disputed",
                  lambda: payloads.hand_checked(event.game, event.hand, event.check))


def webhooks_game_finished(event: events.GameFinished) -> None:
    if without_webhooks(event.game):
        return
    webhooks_send(event.game.league_id, "game.finished", lambda: payloads.game_finished(event.game))


def webhooks_standings_updated(event: events.StandingsUpdated) -> None:
    webhooks_send(event.league_id, "standings.updated", lambda: payloads.standings_updated(
        League.objects.get(pk=event.league_id), computed_at=event.computed_at))


def webhooks_night_started(event: events.NightStarted) -> None:
    webhooks_send(event.night.league_id, "night.started", lambda: payloads.night_event(event.night))


def webhooks_round_started(event: events.RoundStarted) -> None:
    webhooks_send(event.night.league_id, "round.started", lambda: payloads.round_started(event.night, event.round))


def webhooks_night_finished(event: events.NightFinished) -> None:
    webhooks_send(event.night.league_id, "night.finished", lambda: payloads.night_event(event.night))


def webhooks_send_test(event: events.WebhookTestRequested) -> None:
    tasks.queue_webhook_attempt(event.delivery_id, attempt=1)


def connect() -> None:
    """Subscribe everything above (called once, when the app is ready)."""
    events.subscribe(events.HandRecorded, webhooks_hand_recorded)
    events.subscribe(events.HandCorrected, webhooks_hand_corrected)
    events.subscribe(events.HandConfirmed, webhooks_hand_confirmed)
    events.subscribe(events.HandDisputed, webhooks_hand_disputed)
    events.subscribe(events.GameFinished, webhooks_game_finished)
    events.subscribe(events.GameResultChanged, standings_follow_result)
    events.subscribe(events.LeagueSeasonsChanged, standings_follow_seasons)
    events.subscribe(events.LeaguePlayersChanged, standings_follow_players)
    events.subscribe(events.RestoreUploaded, restore_in_background)
    events.subscribe(events.StandingsUpdated, webhooks_standings_updated)
    events.subscribe(events.NightStarted, webhooks_night_started)
    events.subscribe(events.RoundStarted, webhooks_round_started)
    events.subscribe(events.NightFinished, webhooks_night_finished)
    events.subscribe(events.WebhookTestRequested, webhooks_send_test)

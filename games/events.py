"""Things that happen to games that others follow.

A game finishing, or a correction or undo touching a finished game, changes its league's
standings and ratings: those are brought up to date by a task, queued once the transaction
commits so the worker never reads a row that is not there yet. Without a broker the task runs
in this process, once the response to the request that queued it has been sent
(``games.background``), never inside the request.

Queueing must never cost the scorekeeper their hand: it runs after the hand is stored, and if
the broker cannot be reached the failure is logged and the league is left for the catch-up
task (``games.standings_catch_up``), which recomputes every league whose standings are older
than its latest result.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def game_result_changed(game) -> None:
    if game.league_id is None:
        return
    league_id = game.league_id

    def queue() -> None:
        queue_standings_update(league_id)

    transaction.on_commit(queue)


def league_seasons_changed(league) -> None:
    """A season of the league was created or its dates changed (its watermark dropped): the league's update
    recomputes that season's rows."""
    league_id = league.pk

    def queue() -> None:
        queue_standings_update(league_id)

    transaction.on_commit(queue)


def queue_standings_update(league_id: int) -> None:
    """Queue the league's standings update (once the response is sent, without a broker)."""
    from games import background, tasks

    if tasks.league_standings_update.app.conf.task_always_eager:
        background.after_response(("league_standings_update", league_id),
                                  lambda: tasks.league_standings_update.delay(league_id))
        return
    try:
        tasks.league_standings_update.delay(league_id)
    except Exception:  # noqa: BLE001 - any broker failure; what changed is already stored
        logger.warning("could not queue the standings update for league %s; the catch-up task will do it",
                       league_id, exc_info=True)


def league_players_changed(league) -> None:
    """Players of the league were merged: its standings and ratings are recomputed from scratch."""
    league_id = league.pk

    def queue() -> None:
        from games import tasks

        try:
            tasks.league_standings_recompute.delay(league_id)
        except Exception:  # noqa: BLE001 - any broker failure; the merge is already stored
            logger.warning("could not queue the standings recompute for league %s; the catch-up task will do it",
                           league_id, exc_info=True)

    transaction.on_commit(queue)


# --- webhooks (games/webhooks/): each is sent after the transaction commits, to the league's endpoints
# that asked for it; the event's body is built then, and only if one did.


def hand_recorded(game, hand) -> None:
    from games.webhooks import payloads
    from games.webhooks.dispatch import emit

    emit(game.league_id, "hand.recorded", lambda: payloads.hand_recorded(game, hand))


def hand_corrected(game, revision) -> None:
    from games.webhooks import payloads
    from games.webhooks.dispatch import emit

    emit(game.league_id, "hand.corrected", lambda: payloads.hand_corrected(game, revision))


def game_finished(game) -> None:
    from games.webhooks import payloads
    from games.webhooks.dispatch import emit

    emit(game.league_id, "game.finished", lambda: payloads.game_finished(game))


def standings_updated(league_id: int) -> None:
    from django.utils import timezone

    from games.models import League
    from games.webhooks import payloads
    from games.webhooks.dispatch import emit

    computed_at = timezone.now()
    emit(league_id, "standings.updated",
         lambda: payloads.standings_updated(League.objects.get(pk=league_id), computed_at=computed_at))

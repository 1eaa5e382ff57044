"""Things that happen to games that others follow.

A game finishing, or a correction or undo touching a finished game, changes its league's
standings and ratings: those are recomputed by a task, queued once the transaction commits
so the worker never reads a row that is not there yet.
"""

from __future__ import annotations

from django.db import transaction


def game_result_changed(game) -> None:
    if game.league_id is None:
        return
    league_id = game.league_id

    def queue() -> None:
        from games import tasks

        tasks.league_standings_update.delay(league_id)

    transaction.on_commit(queue)

"""The demo league that ``make run`` loads into an empty database."""

from __future__ import annotations

from django.core.management import call_command

from games.integrity import game_mismatches
from games.models import Game, League, Match
from games.rules import game_types


def test_the_demo_has_finished_and_live_games_of_every_type(db, capsys):
    call_command("load_demo", "--if-empty")
    assert "Sign in as 'organiser'" in capsys.readouterr().out
    games = Game.objects.prefetch_related("hands")
    for game_type in game_types():
        statuses = {game.status for game in games if game.game_type == game_type}
        assert {"finished", "in_progress"} <= statuses, game_type
    assert all(game_mismatches(game) == [] for game in games)
    assert Match.objects.get().games.count() == 3


def test_the_demo_is_loaded_only_into_an_empty_database(db, capsys):
    call_command("load_demo", "--if-empty")
    call_command("load_demo", "--if-empty")
    assert League.objects.count() == 1
    assert "already has data" in capsys.readouterr().out

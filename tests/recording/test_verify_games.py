"""``manage.py verify_games`` re-checks every game in the database."""

from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Hand
from games.rules import random_hand
from games.services import hand_record


def play(game, by, hands=5):
    rng = random.Random(game.pk)
    for _ in range(hands):
        hand_record(game=game, record=random_hand(game.game_type, rng), by=by)


def test_all_good_games_pass(start_game, owner, capsys):
    for game_type in ("spades", "thieving_stink"):
        play(start_game(game_type, target=100000), owner)
    call_command("verify_games")
    assert "2 games checked; all match their hands" in capsys.readouterr().out


def test_a_tampered_hand_is_reported(start_game, owner, capsys):
    game = start_game("thieving_stink", target=100000)
    play(game, owner)
    Hand.objects.filter(game=game, number=3).update(delta={"NS": 0, "EW": 0})
    with pytest.raises(CommandError, match="1 of 1 games do not match"):
        call_command("verify_games")
    assert f"game {game.pk}: hand 3: stored delta" in capsys.readouterr().out


def test_a_wrong_status_is_reported(start_game, owner, capsys):
    game = start_game("thieving_stink", target=100000)
    play(game, owner, hands=1)
    Game.objects.filter(pk=game.pk).update(status="finished", winner="NS")
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "status finished/NS but a replay gives in_progress/-" in capsys.readouterr().out

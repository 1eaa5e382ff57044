"""A full rebuild, from the hands alone: ``manage.py rebuild_standings [--league SLUG]`` and its task."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import PlayerFigures, PlayerRating, RatingChange, Standing
from games.services import league_create

pytestmark = pytest.mark.django_db


def snapshot(league):
    return (
        list(Standing.objects.filter(league=league).order_by("game_type", "player", "partner")
             .values_list("game_type", "player", "partner", "played", "won", "points_for", "streak")),
        list(PlayerRating.objects.filter(league=league).order_by("game_type", "player")
             .values_list("player", "mu", "sigma", "rank")),
        RatingChange.objects.filter(league=league).count(),
        list(PlayerFigures.objects.filter(league=league).order_by("game_type", "player")
             .values_list("player", "hands", "counts")),
    )


def test_rebuild_restores_lost_or_damaged_rows(league, players, play_game, recompute):
    play_game("spades", winner="NS")
    play_game("thieving_stink", winner="EW")
    recompute()
    expected = snapshot(league)
    Standing.objects.filter(league=league, partner__isnull=False).delete()
    PlayerRating.objects.filter(league=league).update(mu=1.0)
    RatingChange.objects.all().delete()

    out, err = StringIO(), StringIO()
    call_command("rebuild_standings", stdout=out, stderr=err)

    assert snapshot(league) == expected
    assert "rebuilt standings of 1 league(s) from 2 games and 3 hands" in out.getvalue()
    assert "1/1" in err.getvalue()  # the progress bar


def test_rebuild_one_league(league, owner, players, new_table, play_game):
    other = league_create(name="Friday Club", by=owner)
    play_game("smudge", winner="NS")
    play_game("smudge", winner="NS", league=other, seats=new_table(other))
    call_command("rebuild_standings", "--league", other.slug, "--no-progress", stdout=StringIO())
    assert Standing.objects.filter(league=other).exists()
    assert not Standing.objects.filter(league=league).exists()


def test_rebuild_an_unknown_league():
    with pytest.raises(CommandError, match="no league with the slug 'nowhere'"):
        call_command("rebuild_standings", "--league", "nowhere", stdout=StringIO(), stderr=StringIO())


def test_rebuild_task(league, players, play_game):
    from games.tasks import standings_rebuild_task

    play_game("trumps", winner="EW")
    (summary,) = standings_rebuild_task.delay(league.slug).get()
    assert (summary["league_id"], summary["games"], summary["hands"]) == (league.pk, 1, 1)
    assert Standing.objects.filter(league=league, game_type="trumps").count() == 6

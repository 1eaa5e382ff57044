"""The update after a game finishes folds just that result into the stored rows when it can.

Whatever path it takes, the stored rows must be exactly those a full recompute stores: every
column of every row of the four tables (all but ids and ``computed_at``) is compared.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from games.models import ChangedResult, Game, PlayerFigures, PlayerRating, RatingChange, Standing
from games.models.standings import StandingsWatermark
from games.rules import game_types
from games.services import game_start, hand_correct, hand_record, hand_undo, match_start
from games.standings import services as standings_services
from games.standings.services import league_standings_recompute, league_standings_update

from .conftest import ONE_HAND

pytestmark = pytest.mark.django_db

SKIPPED = {"id", "league", "computed_at"}


def stored(league) -> dict[str, list[str]]:
    """Every standings row of the league, as sorted JSON lines without ids and times of computing."""
    out = {}
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
        fields = [field.attname for field in model._meta.concrete_fields if field.name not in SKIPPED]
        rows = model.objects.filter(league=league).values(*fields)
        out[model.__name__] = sorted(json.dumps(row, default=str, sort_keys=True) for row in rows)
    return out


def watermark(league) -> dict:
    return StandingsWatermark.objects.filter(league=league).values(
        "games", "matches", "last_finished_at", "last_kind", "last_id", "sequences", "ratings_from", "table_sizes"
    ).get()


def update(league):
    return league_standings_update(league_id=league.pk)


def same_as_a_recompute(league) -> None:
    """The stored rows and watermark are those a full recompute stores."""
    folded, mark = stored(league), watermark(league)
    league_standings_recompute(league_id=league.pk)
    assert stored(league) == folded
    assert watermark(league) == mark


@pytest.fixture
def computed(league, recompute):
    """The league computed once (with nothing in it): from now on it has a watermark."""
    recompute()
    return league


def test_a_new_league_is_recomputed_first(league, play_game):
    play_game("smudge", winner="NS")
    summary = update(league)
    assert (summary.mode, summary.games) == ("recompute", 1)
    assert "never computed" in summary.reason


@pytest.mark.parametrize("game_type, winner", [(game_type, ("NS", "EW")[number % 2])
                                               for number, game_type in enumerate(game_types())])
def test_one_finished_game_is_folded_in(computed, players, play_game, game_type, winner):
    league = computed
    play_game("spades", winner="EW")
    play_game(game_type, winner="NS")
    assert update(league).mode == "incremental"

    play_game(game_type, winner=winner)
    summary = update(league)

    assert (summary.mode, summary.games, summary.reason) == ("incremental", 3, "")
    assert summary.hands in (1, 2)  # only the new game's hands were read
    same_as_a_recompute(league)


def test_many_incremental_steps_end_where_a_recompute_does(computed, owner, players, make_seats, play_game):
    league = computed
    ann, ben, cat, dan = players
    tables = [make_seats(ann, ben, cat, dan), make_seats(ben, ann, dan, cat), make_seats(cat, dan, ann, ben),
              make_seats(ann, cat, ben, dan)]
    plan = [("spades", "NS"), ("smudge", "EW"), ("thieving_stink", "NS"), ("trumps", "EW"), ("spades", "EW"),
            ("smudge", "NS"), ("spades", "EW"), ("thieving_stink", "EW"), ("smudge", "EW"), ("trumps", "NS")]
    for number, (game_type, winner) in enumerate(plan):
        play_game(game_type, winner=winner, seats=tables[number % len(tables)])
        assert update(league).mode == "incremental"
    # A cutthroat Spades game: four players alone.
    game = game_start(game_type="spades", seats=tables[1], by=owner, league=league,
                      options={"target": 100, "partnerships": False})
    for _ in range(4):
        hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    assert update(league).mode == "incremental"

    assert Standing.objects.filter(league=league, partner__isnull=False).exists()
    assert RatingChange.objects.filter(league=league).count() == 4 * 11
    same_as_a_recompute(league)


def test_a_trumps_match_is_folded_in_game_by_game(computed, owner, seats, players, play_game):
    league = computed
    play_game("trumps", winner="EW")
    update(league)
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for _ in range(3):
        game = match.games.order_by("-match_game_number").first()
        hand_record(game=game, record=ONE_HAND["trumps"]["NS"], by=owner)
        assert update(league).mode == "incremental"

    ann_line = Standing.objects.get(league=league, game_type="trumps", player=players[0], partner=None)
    assert (ann_line.played, ann_line.matches_played, ann_line.matches_won, ann_line.match_points) == (4, 1, 1, 15)
    assert watermark(league)["matches"] == 1
    # The games of a match are not rated alone: the free game and the match, four players each.
    assert RatingChange.objects.filter(league=league).count() == 8
    same_as_a_recompute(league)


def test_several_new_games_are_folded_in_together(computed, play_game):
    league = computed
    play_game("smudge", winner="NS")
    play_game("smudge", winner="EW")
    play_game("spades", winner="NS")
    summary = update(league)
    assert (summary.mode, summary.games) == ("incremental", 3)
    same_as_a_recompute(league)


def test_running_the_update_again_changes_nothing(computed, play_game):
    league = computed
    play_game("spades", winner="NS")
    update(league)
    before, mark = stored(league), watermark(league)

    again = update(league)

    assert (again.mode, again.standings, again.rating_changes) == ("unchanged", 0, 0)
    assert stored(league) == before
    assert watermark(league) == mark
    assert RatingChange.objects.filter(league=league).count() == 4


def test_a_correction_of_a_counted_game_is_folded_in(computed, owner, players, play_game):
    league = computed
    game = play_game("thieving_stink", winner="NS")
    play_game("smudge", winner="NS")
    update(league)

    hand_correct(game=game, number=1, record=ONE_HAND["thieving_stink"]["EW"], by=owner)  # EW now win it
    summary = update(league)

    assert (summary.mode, summary.reason) == ("partial", "")
    line = Standing.objects.get(league=league, game_type="thieving_stink", player=players[1], partner=None)
    assert (line.won, line.streak) == (1, "W1")
    same_as_a_recompute(league)


def test_an_undo_of_a_counted_game_is_folded_in(computed, owner, players, play_game):
    league = computed
    first = play_game("smudge", winner="EW")
    play_game("smudge", winner="EW")
    update(league)

    hand_undo(game=first, by=owner)
    summary = update(league)

    assert (summary.mode, summary.games) == ("partial", 1)
    assert Standing.objects.get(league=league, game_type="smudge", player=players[1], partner=None).won == 1
    same_as_a_recompute(league)


def test_an_undo_and_a_new_finish_together_are_folded_in(computed, owner, play_game):
    league = computed
    first = play_game("smudge", winner="EW")
    update(league)
    hand_undo(game=first, by=owner)
    play_game("smudge", winner="NS")  # as many finished games as were counted, one of them new

    summary = update(league)

    assert summary.mode == "partial"
    same_as_a_recompute(league)


def test_a_game_that_finished_before_the_last_counted_one_is_folded_in(computed, play_game):
    league = computed
    early = play_game("spades", winner="NS")
    play_game("spades", winner="EW")
    # The first game's transaction (its last hand and its note) committed late: the update had not seen it
    # when the second was folded in.
    Game.objects.filter(pk=early.pk).update(status=Game.Status.IN_PROGRESS)
    ChangedResult.objects.filter(game_id=early.pk).delete()
    assert update(league).games == 1
    Game.objects.filter(pk=early.pk).update(status=Game.Status.FINISHED)
    ChangedResult.objects.create(league=league, game_id=early.pk)

    summary = update(league)

    assert (summary.mode, summary.games) == ("partial", 2)
    same_as_a_recompute(league)


def test_a_game_finishing_before_the_last_counted_one_is_not_folded_in(computed, play_game):
    league = computed
    play_game("smudge", winner="NS")
    update(league)
    late = play_game("smudge", winner="EW")
    Game.objects.filter(pk=late.pk).update(finished_at=late.finished_at - timedelta(days=1))

    assert update(league).mode == "partial"
    same_as_a_recompute(league)


def test_many_new_results_are_recomputed(computed, play_game, monkeypatch):
    league = computed
    monkeypatch.setattr(standings_services, "FOLD_LIMIT", 1)
    play_game("smudge", winner="NS")
    play_game("smudge", winner="NS")
    summary = update(league)
    assert summary.mode == "recompute" and "more than 1" in summary.reason


def test_an_update_that_dies_leaves_the_rows_and_the_watermark_as_they_were(computed, play_game, monkeypatch):
    league = computed
    play_game("spades", winner="NS")
    update(league)
    before, mark = stored(league), watermark(league)
    play_game("spades", winner="EW")

    def die(*args, **kwargs):
        raise RuntimeError("the worker was killed here")

    monkeypatch.setattr(standings_services, "save_watermark", die)
    with pytest.raises(RuntimeError):
        update(league)

    assert stored(league) == before
    assert watermark(league) == mark
    monkeypatch.undo()
    assert update(league).mode == "incremental"
    same_as_a_recompute(league)


def test_ranks_of_players_not_in_the_new_game_are_updated(computed, owner, make_player, make_seats, players,
                                                          play_game):
    league = computed
    ann, ben, cat, dan = players
    eve, fay, gus, hal = (make_player(name) for name in ("Eve", "Fay", "Gus", "Hal"))
    play_game("smudge", winner="NS")
    update(league)
    play_game("smudge", winner="NS", seats=make_seats(eve, fay, gus, hal))
    play_game("smudge", winner="NS", seats=make_seats(eve, fay, gus, hal))
    assert update(league).mode == "incremental"
    ranks = dict(PlayerRating.objects.filter(league=league).values_list("player_id", "rank"))
    assert ranks[eve.pk] == 1 and ranks[ann.pk] == 3
    same_as_a_recompute(league)


def test_a_drawn_game_of_a_fixed_number_of_hands_is_folded_in(computed, owner, seats, play_game):
    league = computed
    play_game("smudge", winner="NS")
    update(league)
    # One hand each way of Thieving Stink: 120 to 60, then 60 to 120; level at 180 after the last hand.
    game = game_start(game_type="thieving_stink", seats=seats, by=owner, league=league,
                      options={"target": 1000, "last_hand": 2})
    hand_record(game=game, record=ONE_HAND["thieving_stink"]["NS"], by=owner)
    drawn = hand_record(game=game, record=ONE_HAND["thieving_stink"]["EW"], by=owner).game
    assert (drawn.status, drawn.winner, drawn.totals) == ("finished", "", {"NS": 180, "EW": 180})

    assert update(league).mode == "incremental"

    line = Standing.objects.get(league=league, season=None, game_type="thieving_stink", player_id=seats["N"],
                                partner=None)
    assert (line.played, line.won, line.lost, line.streak, line.average_margin) == (1, 0, 0, "D1", 0)
    assert RatingChange.objects.filter(league=league, game_id=drawn.pk).count() == 4
    same_as_a_recompute(league)

"""The update reads the games noted as changed, not the league: its work follows the change, not the league's size.

Tables are committed first; ratings that must be learned again from an early result follow in a second
transaction, and a correction that keeps every placing (who won) moves no rating at all.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import ChangedResult, PlayerRating, RatingChange, Standing
from games.models.standings import StandingsWatermark
from games.services import hand_correct, hand_undo
from games.standings import services as standings_services
from games.standings.services import league_standings_update, stale_league_ids

from .conftest import ONE_HAND
from .test_incremental_update import same_as_a_recompute, stored

pytestmark = pytest.mark.django_db

TABLES = ("Standing", "PlayerFigures")


def update(league):
    return league_standings_update(league_id=league.pk)


def played(play_game, count: int):
    winners = ["NS", "EW", "EW", "NS", "NS"]
    return [play_game(("smudge", "thieving_stink")[n % 2], winner=winners[n % len(winners)]) for n in range(count)]


def test_finishing_a_game_and_correcting_it_each_note_the_game(league, owner, play_game):
    game = play_game("smudge", winner="NS")
    assert list(ChangedResult.objects.values_list("league", "game_id")) == [(league.pk, game.pk)]
    update(league)
    assert not ChangedResult.objects.exists()  # taken in
    hand_correct(game=game, number=1, record=ONE_HAND["smudge"]["EW"], by=owner)
    assert list(ChangedResult.objects.values_list("game_id", flat=True)) == [game.pk]


def test_a_hand_of_a_game_in_progress_notes_nothing(league, owner, start_game):
    game = start_game("spades", target=500)
    from games.services import hand_record

    hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    assert not ChangedResult.objects.exists()


@pytest.mark.parametrize("earlier", [2, 24])
def test_the_update_after_a_new_game_asks_the_same_questions_whatever_came_before(league, recompute, play_game,
                                                                                  earlier):
    played(play_game, earlier)
    recompute()
    new = play_game("smudge", winner="EW")
    with CaptureQueriesContext(connection) as queries:
        summary = update(league)
    assert (summary.mode, summary.games, summary.hands) == ("incremental", earlier + 1, new.hand_count)
    # The league's results are not read, nor compared: only the new game's rows, and the lines it touches.
    statements = [query["sql"] for query in queries.captured_queries]
    assert not any("games_countedresult" in sql and "IN" not in sql and sql.startswith("SELECT")
                   for sql in statements)
    assert len(statements) <= 22, statements
    same_as_a_recompute(league)


def test_a_correction_that_keeps_the_winners_moves_no_rating(league, owner, recompute, play_game):
    games = played(play_game, 6)
    update(league)
    ratings = list(PlayerRating.objects.filter(league=league).values_list("player", "mu", "sigma", "rank"))
    history = RatingChange.objects.filter(league=league).count()
    stink = games[1]  # won by EW, 120 to 60
    # The same side wins, by more: the totals change, the winner does not.
    corrected = {"face_cards": {"EW": 11, "NS": 5}, "trump_stack": {"holder": "E", "size": 4}}
    hand_correct(game=stink, number=1, record=corrected, by=owner)

    summary = update(league)

    assert (summary.mode, summary.rating_changes) == ("partial", 0)
    assert list(PlayerRating.objects.filter(league=league).values_list("player", "mu", "sigma", "rank")) == ratings
    assert RatingChange.objects.filter(league=league).count() == history
    assert not StandingsWatermark.objects.get(league=league).ratings_from
    same_as_a_recompute(league)


def test_a_winner_changed_early_is_in_the_tables_before_the_ratings_follow(league, owner, players, play_game,
                                                                           monkeypatch):
    games = played(play_game, 6)
    update(league)
    hand_correct(game=games[0], number=1, record=ONE_HAND["smudge"]["EW"], by=owner)  # EW win it now

    def killed(*args, **kwargs):
        raise RuntimeError("the worker was lost between the tables and the ratings")

    monkeypatch.setattr(standings_services, "relearn_ratings", killed)
    with pytest.raises(RuntimeError):
        update(league)

    # The tables are committed and right; the ratings are marked to be learned again from the changed game.
    ann = Standing.objects.get(league=league, game_type="smudge", player=players[0], partner=None)
    assert ann.won == 1
    mark = StandingsWatermark.objects.get(league=league).ratings_from
    assert list(mark) == ["smudge"] and mark["smudge"][2] == games[0].pk
    assert stale_league_ids() == [league.pk]  # the catch-up finishes the work

    monkeypatch.undo()
    summary = update(league)
    assert summary.mode == "unchanged" and summary.rating_changes > 0
    assert not StandingsWatermark.objects.get(league=league).ratings_from
    assert stale_league_ids() == []
    same_as_a_recompute(league)


def test_new_games_after_a_marked_game_type_are_learned_with_it(league, owner, play_game, monkeypatch):
    games = played(play_game, 4)
    update(league)
    hand_undo(game=games[0], by=owner)  # the first smudge game is no longer a result
    monkeypatch.setattr(standings_services, "ratings_relearn", lambda *, league_id: {})  # the second step is late
    update(league)
    assert "smudge" in StandingsWatermark.objects.get(league=league).ratings_from
    play_game("smudge", winner="EW")  # folded into the tables; its rating waits for the type's relearning
    update(league)
    monkeypatch.undo()
    update(league)
    same_as_a_recompute(league)


def test_the_stored_table_sizes_follow_the_lines(league, owner, make_player, make_seats, players, play_game):
    ann, ben, cat, dan = players
    eve = make_player("Eve")
    play_game("smudge", winner="NS")
    update(league)
    game = play_game("smudge", winner="EW", seats=make_seats(eve, ben, cat, dan))
    update(league)
    assert StandingsWatermark.objects.get(league=league).table_sizes == {"smudge": [5, 3]}
    hand_undo(game=game, by=owner)  # Eve's only game: her line and her partnership go
    update(league)
    assert StandingsWatermark.objects.get(league=league).table_sizes == {"smudge": [4, 2]}
    assert Standing.objects.filter(league=league).count() == 6
    assert stored(league)["Standing"]
    same_as_a_recompute(league)

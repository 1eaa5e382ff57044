"""A correction or an undo of a counted game recomputes only what it touches, and ends where a recompute does.

The update finds what changed by comparing the league's finished results with those its rows count
(each kept with its fingerprint): the touched players' lines and figures are counted again from their
games, and the game type's ratings are learned again from the first changed result on. Every column
of every row is compared with a full recompute after each step.
"""

from __future__ import annotations

import random

import pytest

from games.models import ChangedResult, CountedResult, Game, PlayerRating, RatingChange, Standing
from games.models.standings import StandingsWatermark
from games.rules import game_types
from games.services import game_start, hand_correct, hand_record, hand_undo, match_start
from games.standings.services import league_standings_update

from .conftest import ONE_HAND
from .test_incremental_update import same_as_a_recompute, stored

pytestmark = pytest.mark.django_db


def update(league):
    return league_standings_update(league_id=league.pk)


@pytest.fixture
def roster(make_player, players):
    return [*players, *(make_player(name) for name in ("Eve", "Fay", "Gus", "Hal"))]


@pytest.fixture
def busy_league(computed_league, roster, make_seats, play_game):
    """Thirty finished games of every type between eight players, counted; the games in order."""
    rng = random.Random(5)
    games = []
    for _ in range(30):
        table = rng.sample(roster, 4)
        game_type = rng.choice(game_types())
        games.append(play_game(game_type, winner=rng.choice(["NS", "EW"]), seats=make_seats(*table)))
    assert update(computed_league).mode == "incremental"
    return games


@pytest.fixture
def computed_league(league, recompute):
    recompute()
    return league


def flip(game) -> dict:
    """The first hand of ``game`` recorded the other way round, so the other side wins it."""
    winner = "EW" if game.winner == "NS" else "NS"
    return ONE_HAND[game.game_type][winner]


def test_a_correction_early_in_the_league_relearns_the_ratings_from_there(computed_league, owner, busy_league):
    league = computed_league
    early = next(game for game in busy_league if game.game_type != "spades")  # one hand: the other side wins
    before = RatingChange.objects.filter(league=league, game_type=early.game_type).count()

    hand_correct(game=early, number=1, record=flip(early), by=owner)
    summary = update(league)

    assert summary.mode == "partial"
    assert Game.objects.get(pk=early.pk).winner != early.winner
    assert summary.rating_changes == before  # every result of the type from the first on, learned again
    same_as_a_recompute(league)


def test_a_correction_of_the_last_game_touches_only_its_players(computed_league, owner, roster, busy_league):
    league, last = computed_league, busy_league[-1]
    seated = set(Game.objects.filter(pk=last.pk).values_list("north_id", "east_id", "south_id", "west_id").get())
    others = [player.pk for player in roster if player.pk not in seated]
    untouched = sorted(Standing.objects.filter(league=league, player_id__in=others, partner__isnull=True)
                       .values_list("id", "game_type", "won", "computed_at"))

    hand_correct(game=last, number=1, record=flip(last), by=owner)
    summary = update(league)

    assert summary.mode == "partial"
    assert summary.rating_changes == 4  # only the last result is learned again
    assert sorted(Standing.objects.filter(league=league, player_id__in=others, partner__isnull=True)
                  .values_list("id", "game_type", "won", "computed_at")) == untouched
    same_as_a_recompute(league)


def test_of_two_games_finished_at_one_moment_the_ratings_are_learned_again_from_the_one_corrected(
        computed_league, owner, play_game):
    """Results of one moment are in the order of their ids: correcting the second learns it again alone, correcting
    the first learns both."""
    league = computed_league
    first, second = (play_game("smudge", winner="NS") for _ in range(2))
    Game.objects.filter(pk=second.pk).update(finished_at=Game.objects.get(pk=first.pk).finished_at)
    assert update(league).mode == "incremental"

    hand_correct(game=second, number=1, record=flip(second), by=owner)
    assert update(league).rating_changes == 4  # the second game's four players, once
    same_as_a_recompute(league)

    hand_correct(game=first, number=1, record=flip(first), by=owner)
    assert update(league).rating_changes == 8  # both games, from the first on
    same_as_a_recompute(league)


def test_many_corrections_and_undos_one_update_each_end_where_a_recompute_does(computed_league, owner,
                                                                                busy_league):
    league = computed_league
    rng = random.Random(11)
    for game in rng.sample(busy_league, 6):
        game.refresh_from_db()
        if rng.random() < 0.5:
            hand_undo(game=game, by=owner)
        else:
            hand_correct(game=game, number=game.hand_count, record=flip(game), by=owner)
        assert update(league).mode == "partial"
        same_as_a_recompute(league)


def test_several_changes_and_a_new_game_in_one_update(computed_league, owner, busy_league, play_game, seats):
    league = computed_league
    for game in (busy_league[0], busy_league[10], busy_league[20]):
        hand_correct(game=game, number=game.hand_count, record=flip(game), by=owner)
    hand_undo(game=busy_league[25], by=owner)
    play_game("smudge", winner="EW", seats=seats)

    summary = update(league)

    assert summary.mode == "partial"
    same_as_a_recompute(league)


def test_an_undo_of_a_players_only_game_removes_their_rows(computed_league, owner, make_player, make_seats,
                                                           play_game, busy_league):
    league = computed_league
    newcomers = [make_player(name) for name in ("Ivy", "Jon", "Kit", "Lou")]
    game = play_game("thieving_stink", winner="NS", seats=make_seats(*newcomers))
    update(league)
    assert PlayerRating.objects.filter(league=league, player=newcomers[0]).exists()

    hand_undo(game=game, by=owner)
    assert update(league).mode == "partial"

    assert not Standing.objects.filter(league=league, player__in=newcomers).exists()
    assert not PlayerRating.objects.filter(league=league, player__in=newcomers).exists()
    same_as_a_recompute(league)


def test_a_correction_in_a_trumps_match_changes_the_match_too(computed_league, owner, seats, busy_league):
    league = computed_league
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for _ in range(3):
        game = match.games.order_by("-match_game_number").first()
        hand_record(game=game, record=ONE_HAND["trumps"]["NS"], by=owner)
    update(league)
    third = match.games.get(match_game_number=3)

    hand_correct(game=third, number=1, record=ONE_HAND["trumps"]["EW"], by=owner)
    summary = update(league)

    assert summary.mode == "partial"
    same_as_a_recompute(league)


def test_a_cutthroat_game_corrected(computed_league, owner, seats, busy_league):
    league = computed_league
    game = game_start(game_type="spades", seats=seats, by=owner, league=league,
                      options={"target": 100, "partnerships": False})
    for _ in range(4):
        hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    update(league)

    hand_undo(game=game, by=owner)
    hand_record(game=game, record=ONE_HAND["spades"]["EW"], by=owner)
    assert update(league).mode == "partial"
    same_as_a_recompute(league)


def test_a_counted_game_gone_from_the_database_recomputes(computed_league, busy_league):
    league, game = computed_league, busy_league[4]
    Game.objects.filter(pk=game.pk).delete()
    ChangedResult.objects.create(league=league, game_id=game.pk)
    summary = update(league)
    assert summary.mode == "recompute" and "gone" in summary.reason
    same_as_a_recompute(league)


def test_rows_counted_before_placings_were_recorded_are_recomputed_once(computed_league, busy_league):
    league = computed_league
    StandingsWatermark.objects.filter(league=league).delete()  # as the migration that added placings leaves it
    summary = update(league)
    assert summary.mode == "recompute" and "never computed" in summary.reason
    assert CountedResult.objects.filter(league=league, placing__isnull=False).count() == 30
    assert update(league).mode == "unchanged"


def test_running_the_update_again_after_a_correction_changes_nothing(computed_league, owner, busy_league):
    league = computed_league
    hand_correct(game=busy_league[7], number=1, record=flip(busy_league[7]), by=owner)
    update(league)
    rows, mark = stored(league), StandingsWatermark.objects.filter(league=league).values().get()
    assert update(league).mode == "unchanged"
    assert stored(league) == rows
    assert {key: value for key, value in StandingsWatermark.objects.filter(league=league).values().get().items()
            if key != "computed_at"} == {key: value for key, value in mark.items() if key != "computed_at"}

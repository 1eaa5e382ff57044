"""Recomputing a league's stored standings from games finished through the services (SQLite, eager)."""

from __future__ import annotations

import pytest

from games.models import PlayerFigures, PlayerRating, RatingChange, Standing
from games.rules import game_types
from games.services import game_abandon, game_start, hand_record

from .conftest import ONE_HAND

pytestmark = pytest.mark.django_db


def line(league, game_type, *players):
    ids = sorted(player.pk for player in players)
    partner = ids[1] if len(ids) == 2 else None
    return Standing.objects.get(league=league, game_type=game_type, player_id=ids[0], partner_id=partner)


def test_players_and_partnerships_count_every_finished_game(league, players, play_game, recompute):
    ann, ben, cat, dan = players
    for winner in ("NS", "EW", "NS"):  # every game 122 to 120
        play_game("spades", winner=winner)
    summary = recompute()

    assert (summary.games, summary.hands) == (3, 6)
    ann_line = line(league, "spades", ann)
    assert (ann_line.played, ann_line.won, ann_line.lost, ann_line.streak) == (3, 2, 1, "W1")
    assert (ann_line.points_for, ann_line.points_against) == (364, 362)
    assert ann_line.win_rate == pytest.approx(2 / 3)
    assert ann_line.average_margin == pytest.approx(2 / 3)
    ben_line = line(league, "spades", ben)
    assert (ben_line.won, ben_line.lost, ben_line.streak, ben_line.average_margin) == (1, 2, "L1", pytest.approx(-2 / 3))
    pair = line(league, "spades", cat, ann)
    assert (pair.played, pair.won, pair.points_for) == (3, 2, 364)
    assert line(league, "spades", ben, dan).won == 1
    # Four players and two partnerships.
    assert Standing.objects.filter(league=league).count() == 6


def test_partnership_is_the_pair_whatever_the_seats(league, players, play_game, recompute):
    ann, ben, cat, dan = players
    play_game("smudge", winner="NS")
    play_game("smudge", winner="EW", seats={"N": ben.pk, "E": ann.pk, "S": dan.pk, "W": cat.pk})
    recompute()
    assert line(league, "smudge", ann, cat).played == 2
    assert line(league, "smudge", ann, cat).won == 2
    assert line(league, "smudge", ben, dan).lost == 2


def test_abandoned_and_unfinished_games_do_not_count(league, players, owner, seats, play_game, recompute):
    play_game("thieving_stink", winner="EW")
    abandoned = game_start(game_type="thieving_stink", seats=seats, by=owner, league=league,
                           options={"target": 500})
    hand_record(game=abandoned, record=ONE_HAND["thieving_stink"]["NS"], by=owner)
    game_abandon(game=abandoned, by=owner)
    unfinished = game_start(game_type="thieving_stink", seats=seats, by=owner, league=league,
                            options={"target": 500})
    hand_record(game=unfinished, record=ONE_HAND["thieving_stink"]["NS"], by=owner)

    summary = recompute()

    assert (summary.games, summary.hands) == (1, 1)
    assert line(league, "thieving_stink", players[0]).played == 1
    assert PlayerFigures.objects.get(league=league, player=players[1]).counts == {"stack_holds": 1, "stack_cards": 4}


def test_casual_games_and_other_leagues_do_not_count(league, owner, players, seats, new_table, play_game,
                                                    recompute):
    from games.services import league_create

    other = league_create(name="Friday Club", by=owner)
    play_game("trumps", league=other, seats=new_table(other))
    casual = game_start(game_type="trumps", seats=seats, by=owner, options={"target": 5})
    assert hand_record(game=casual, record=ONE_HAND["trumps"]["NS"], by=owner).game.status == "finished"
    summary = recompute()
    assert summary.games == 0
    assert not Standing.objects.filter(league=league).exists()
    assert recompute(other).games == 1


def test_cutthroat_spades_counts_per_player_only(league, owner, seats, players, recompute):
    ann, ben, cat, dan = players
    game = game_start(game_type="spades", seats=seats, by=owner, league=league,
                      options={"target": 100, "partnerships": False})
    for _ in range(4):  # N takes an overtrick every hand: 124 to 120 each
        result = hand_record(game=game, record=ONE_HAND["spades"]["NS"], by=owner)
    assert result.game.winner == "N"

    recompute()

    assert not Standing.objects.filter(league=league, partner__isnull=False).exists()
    ann_line, cat_line = line(league, "spades", ann), line(league, "spades", cat)
    assert (ann_line.won, ann_line.points_for, ann_line.points_against, ann_line.average_margin) == (1, 124, 120, 4)
    assert (cat_line.lost, cat_line.points_for, cat_line.points_against, cat_line.average_margin) == (1, 120, 124, -4)
    # Rated as four players alone: the winner first, the other three level.
    ratings = {rating.player_id: rating for rating in PlayerRating.objects.filter(league=league)}
    assert ratings[ann.pk].rank == 1
    assert {ratings[p.pk].rank for p in (ben, cat, dan)} == {2}
    assert ratings[ben.pk].mu == pytest.approx(ratings[dan.pk].mu)


def test_ratings_and_history_are_stored(league, players, play_game, recompute):
    ann, ben, cat, dan = players
    play_game("spades", winner="NS")
    play_game("spades", winner="NS")
    recompute()

    ann_rating = PlayerRating.objects.get(league=league, game_type="spades", player=ann)
    assert ann_rating.rated == 2
    assert ann_rating.ordinal == pytest.approx(ann_rating.mu - 3 * ann_rating.sigma)
    assert ann_rating.rank == 1 and PlayerRating.objects.get(league=league, player=ben).rank == 3
    history = list(RatingChange.objects.filter(league=league, player=ann).order_by("sequence"))
    assert [change.sequence for change in history] == [1, 2]
    assert history[0].mu == pytest.approx(26.964, abs=1e-3)  # see test_ratings_arithmetic
    assert history[1].mu == pytest.approx(ann_rating.mu)


def test_figures_come_from_the_hands(league, players, play_game, recompute):
    ann, ben, cat, dan = players
    play_game("spades", winner="NS")  # two hands: every contract made, NS one bag a hand
    recompute()
    ann_figures = PlayerFigures.objects.get(league=league, game_type="spades", player=ann)
    assert ann_figures.hands == 2
    assert ann_figures.counts == {"bids": 2, "bids_made": 2, "nils": 0, "nils_made": 0, "blind_nils": 0,
                                  "blind_nils_made": 0, "bags": 2}
    assert PlayerFigures.objects.get(league=league, game_type="spades", player=ben).counts["bags"] == 0


def test_running_twice_stores_the_same_rows(league, players, play_game, recompute):
    for game_type in game_types():
        play_game(game_type, winner="EW")
    play_game("smudge", winner="NS")

    def stored():
        return [
            list(model.objects.filter(league=league).values_list(*fields).order_by(*fields[:3]))
            for model, fields in (
                (Standing, ("game_type", "player", "partner", "played", "won", "points_for", "streak")),
                (PlayerRating, ("game_type", "player", "mu", "sigma", "rank")),
                (RatingChange, ("game_type", "player", "sequence", "game", "mu")),
                (PlayerFigures, ("game_type", "player", "hands", "counts")),
            )
        ]

    recompute()
    first = stored()
    recompute()
    assert stored() == first


def test_rows_of_results_that_went_away_are_removed(league, players, play_game, recompute, owner):
    from games.services import hand_undo

    game = play_game("trumps", winner="NS")
    recompute()
    assert Standing.objects.filter(league=league, game_type="trumps").exists()
    hand_undo(game=game, by=owner)
    recompute()
    assert not Standing.objects.filter(league=league).exists()
    assert not PlayerRating.objects.filter(league=league).exists()
    assert not RatingChange.objects.filter(league=league).exists()

"""Merging two records of one person: games, matches, standings and ratings follow, as if they had been one."""

from __future__ import annotations

import pytest

from games.errors import InvalidInput, NotAllowed
from games.models import Game, Match, Player, PlayerFigures, PlayerRating, RatingChange, Standing
from games.services import (
    game_start,
    hand_record,
    league_create,
    match_start,
    player_create,
    player_link,
    player_merge,
)
from games.standings.services import league_standings_recompute
from games.subscribers import standings_follow_players

from .conftest import LOW_TARGETS, ONE_HAND

pytestmark = pytest.mark.django_db


def play_club_night(league, owner, ann, ben, cat, dan, second_ann) -> None:
    """Three games and a Trumps match; ``second_ann`` sits where Ann would (the duplicate, or Ann herself)."""
    tables = [((ann, ben, cat, dan), "spades", "NS"), ((second_ann, ben, cat, dan), "spades", "EW"),
              ((ben, second_ann, dan, cat), "smudge", "NS")]
    for four, game_type, winner in tables:
        game = game_start(game_type=game_type, league=league, by=owner, options={"target": LOW_TARGETS[game_type]},
                          seats={seat: player.pk for seat, player in zip("NESW", four, strict=True)})
        for _ in range(2 if game_type == "spades" else 1):
            hand_record(game=game, record=ONE_HAND[game_type][winner], by=owner)
    match = match_start(game_type="trumps", league=league, by=owner, options={"target": 5},
                        seats={"N": second_ann.pk, "E": ben.pk, "S": cat.pk, "W": dan.pk})
    for number, winner in ((1, "NS"), (2, "EW"), (3, "NS")):
        hand_record(game=match.games.get(match_game_number=number), record=ONE_HAND["trumps"][winner], by=owner)


def tables_of(league) -> dict:
    """Everything the standings store for the league, by player names (ids differ between leagues)."""
    names = dict(Player.objects.values_list("pk", "name"))
    lines = sorted((row.game_type, names[row.player_id], names.get(row.partner_id, ""), row.played, row.won, row.lost,
                    row.points_for, row.points_against, row.streak, row.matches_played, row.matches_won,
                    row.match_points) for row in Standing.objects.filter(league=league))
    ratings = sorted((row.game_type, names[row.player_id], round(row.mu, 9), round(row.sigma, 9), row.rank,
                      row.rated) for row in PlayerRating.objects.filter(league=league))
    history = sorted((row.game_type, names[row.player_id], row.sequence, round(row.ordinal, 9))
                     for row in RatingChange.objects.filter(league=league))
    figures = sorted((row.game_type, names[row.player_id], row.hands, sorted(row.counts.items()))
                     for row in PlayerFigures.objects.filter(league=league))
    return {"lines": lines, "ratings": ratings, "history": history, "figures": figures}


@pytest.fixture
def club(league, owner):
    people = {name: player_create(name=name, by=owner, league=league) for name in ("Ann", "Ben", "Cat", "Dan")}
    people["ann"] = player_create(name="ann", by=owner, league=league, allow_similar=True)
    play_club_night(league, owner, people["Ann"], people["Ben"], people["Cat"], people["Dan"], people["ann"])
    league_standings_recompute(league_id=league.pk)
    return people


def test_standings_after_a_merge_equal_a_rebuild_and_one_player_from_the_start(
        league, owner, club, django_capture_on_commit_callbacks):
    ann, duplicate = club["Ann"], club["ann"]
    assert any(line[1] == "ann" for line in tables_of(league)["lines"])
    with django_capture_on_commit_callbacks(execute=True) as queued:
        player_merge(league=league, keep=ann, merge=duplicate, by=owner)
    # The recompute, queued once the merge committed (then, from the recompute, the league's webhooks).
    assert [callback.func for callback in queued][:1] == [standings_follow_players]
    assert sum(callback.func is standings_follow_players for callback in queued) == 1
    merged = tables_of(league)
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert all("ann" not in (line[1], line[2]) for line in merged["lines"])
    league_standings_recompute(league_id=league.pk)
    assert tables_of(league) == merged

    twin = league_create(name="Twin Club", by=owner)
    twins = [player_create(name=name, by=owner, league=twin) for name in ("Ann", "Ben", "Cat", "Dan")]
    play_club_night(twin, owner, *twins, twins[0])
    league_standings_recompute(league_id=twin.pk)
    assert tables_of(twin) == merged


def test_games_and_matches_follow_the_merged_player(league, owner, club):
    ann, duplicate = club["Ann"], club["ann"]
    match = Match.objects.get(league=league)
    assert match.seating["N"] == duplicate.pk and str(duplicate.pk) in match.player_totals
    player_merge(league=league, keep=ann, merge=duplicate, by=owner)
    match.refresh_from_db()
    assert match.seating["N"] == ann.pk and str(ann.pk) in match.player_totals
    assert ann.pk in match.winners and duplicate.pk not in match.winners
    seated = Game.objects.filter(league=league).values_list("north", "east", "south", "west")
    assert duplicate.pk not in {pk for row in seated for pk in row}
    assert sum(ann.pk in row for row in seated) == 6  # her game, the duplicate's two, and three match games


def test_a_claim_follows_the_merged_player(league, owner, member, club):
    player_link(league=league, player=club["ann"], user=member, by=owner)
    kept = player_merge(league=league, keep=club["Ann"], merge=club["ann"], by=owner)
    assert kept.user == member


def test_players_who_sat_at_one_table_are_two_people(league, owner, club):
    with pytest.raises(InvalidInput, match="sat at the same table") as refused:
        player_merge(league=league, keep=club["Ann"], merge=club["Ben"], by=owner)
    assert refused.value.field == "merge"
    assert Player.objects.filter(pk=club["Ben"].pk).exists()


def test_a_merge_across_leagues_is_refused(league, owner, club):
    other = league_create(name="Other Club", by=owner)
    eve = player_create(name="Eve", by=owner, league=other)
    with pytest.raises(InvalidInput, match="not one of Thursday Club's players"):
        player_merge(league=league, keep=club["Ann"], merge=eve, by=owner)
    with pytest.raises(InvalidInput, match="not one of Other Club's players"):
        player_merge(league=other, keep=eve, merge=club["ann"], by=owner)


def test_a_player_who_also_plays_elsewhere_is_not_merged_away(league, owner, club):
    # A league's player may sit at a casual game too: merging them away would take that game's player.
    game_start(game_type="spades", seats={"N": club["ann"].pk, "E": club["Ben"].pk, "S": club["Cat"].pk,
                                          "W": club["Dan"].pk}, by=owner)
    with pytest.raises(InvalidInput, match="also plays outside Thursday Club"):
        player_merge(league=league, keep=club["Ann"], merge=club["ann"], by=owner)


def test_players_claimed_by_two_people_are_not_merged(league, owner, member, scorekeeper, club):
    player_link(league=league, player=club["Ann"], user=member, by=owner)
    player_link(league=league, player=club["ann"], user=scorekeeper, by=owner)
    with pytest.raises(InvalidInput, match="claimed by two different people"):
        player_merge(league=league, keep=club["Ann"], merge=club["ann"], by=owner)


def test_only_owners_merge(league, scorekeeper, club):
    with pytest.raises(NotAllowed):
        player_merge(league=league, keep=club["Ann"], merge=club["ann"], by=scorekeeper)

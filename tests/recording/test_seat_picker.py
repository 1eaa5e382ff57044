"""Whom a user may seat: a league's players, or for a casual game the people they have played with; never a
player they may not see. A new name like an existing one is caught."""

from __future__ import annotations

import pytest

from games import selectors
from games.errors import InvalidInput, SimilarName
from games.models import Player
from games.services import game_start, league_create, player_create, table_start

pytestmark = pytest.mark.django_db


def names(players) -> list[str]:
    return [player.name for player in players]


def test_a_league_game_offers_the_leagues_players(league, owner, players, scorekeeper,
                                                  django_assert_num_queries):
    player_create(name="Zed", by=owner)  # a casual player of the owner's, not the league's
    with django_assert_num_queries(1):
        offered = selectors.players_to_seat(user=scorekeeper, league=league)
    assert names(offered) == ["Ann", "Ben", "Cat", "Dan"]


def test_a_casual_game_offers_the_people_you_played_with(league, owner, players, seats, make_user):
    friend = make_user("friend")
    assert selectors.players_to_seat(user=friend) == []
    game_start(game_type="spades", seats=seats, by=friend)
    mine = player_create(name="Mia", by=friend)
    assert names(selectors.players_to_seat(user=friend)) == ["Ann", "Ben", "Cat", "Dan", "Mia"]
    assert mine not in selectors.players_to_seat(user=owner)


def test_someone_not_signed_in_has_nobody_to_seat_at_a_casual_game(players, seats, owner):
    from django.contrib.auth.models import AnonymousUser

    game_start(game_type="spades", seats=seats, by=owner)
    assert selectors.players_to_seat(user=AnonymousUser()) == []


def test_one_accounts_junk_players_reach_nobody_elses_picker(owner, stranger, league, players):
    for n in range(200):
        player_create(name=f"Junk {n}", by=stranger, allow_similar=True)
    assert all(not player.name.startswith("Junk") for player in selectors.players_to_seat(user=owner))
    assert all(not player.name.startswith("Junk")
               for player in selectors.players_to_seat(user=owner, league=league))


def test_players_of_a_private_league_cannot_be_seated_by_outsiders(owner, stranger, make_user):
    private = league_create(name="Back Room", by=owner, is_public=False)
    secret = [player_create(name=name, by=owner, league=private) for name in ("Sol", "Tia", "Uma", "Vic")]
    assert selectors.players_to_seat(user=stranger) == []
    with pytest.raises(InvalidInput, match=f"there is no player {secret[0].pk}"):
        game_start(game_type="spades", seats={s: p.pk for s, p in zip("NESW", secret, strict=True)}, by=stranger)


def test_a_name_differing_only_in_case_or_spacing_is_caught(league, owner, players):
    seats = {"N": players[0].pk, "E": players[1].pk, "S": players[2].pk, "W": "  ann "}
    before = Player.objects.count()
    with pytest.raises(SimilarName, match="already a player called Ann in Thursday Club") as refused:
        table_start(game_type="spades", seats=seats, by=owner, league=league)
    assert refused.value.field == "seats.W"
    assert Player.objects.count() == before
    game = table_start(game_type="spades", seats={**seats, "W": "Ann  Lee", "N": "ANN", "E": players[3].pk},
                       by=owner, league=league, allow_similar=True)
    assert (game.north.name, game.west.name) == ("ANN", "Ann Lee")
    assert set(league.players.values_list("name", flat=True)) >= {"ANN", "Ann Lee"}


def test_one_new_name_typed_in_two_seats_is_refused(league, owner, players):
    with pytest.raises(InvalidInput, match="typed in two seats"):
        table_start(game_type="spades", seats={"N": "Eve", "E": "eve", "S": players[0].pk, "W": players[1].pk},
                    by=owner, league=league)

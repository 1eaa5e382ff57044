"""Reading a player's head-to-head and partner records from the stored games: what counts, who may see
what, and a fixed number of queries whatever the number of games, partners and opponents."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from games.models import Game
from games.services import game_abandon, game_start, league_create, player_create
from games.standings.head_to_head import player_records_view

pytestmark = pytest.mark.django_db


def stored_game(league, seats: dict, *, game_type="smudge", winner="NS", totals=None, status="finished",
                finished_at=None, options=None, by=None):
    """A finished game as the services leave it, written straight to the table (fast, for many games)."""
    ns, ew = (21, 10) if winner == "NS" else (10, 21)
    return Game.objects.create(
        league=league, game_type=game_type, options=options or {}, rules_version=2, status=status,
        winner=winner if status == "finished" else "", totals=totals or {"NS": ns, "EW": ew}, hand_count=1,
        finished_at=finished_at or datetime(2025, 5, 1, 20, tzinfo=UTC), created_by=by,
        **{name: player for name, player in zip(("north", "east", "south", "west"), seats, strict=True)},
    )


def line(records, game_type="smudge"):
    return next(entry for entry in records["game_types"] if entry["game_type"] == game_type)


def by_name(entries) -> dict[str, tuple[int, int, int]]:
    return {entry["player"]["name"]: (entry["played"], entry["won"], entry["lost"]) for entry in entries}


def test_games_played_through_the_services_count_with_names(play_game, players, owner, make_seats):
    ann, ben, cat, dan = players
    play_game("smudge", winner="NS")
    play_game("smudge", winner="EW", seats=make_seats(ann, cat, ben, dan))  # Ann with Ben, losing
    play_game("spades", winner="NS")
    records = player_records_view(player=ann, user=owner)
    assert [entry["game_type"] for entry in records["game_types"]] == ["spades", "smudge"]
    smudge = line(records)
    assert (smudge["played"], smudge["won"], smudge["lost"]) == (2, 1, 1)
    assert by_name(smudge["partners"]) == {"Cat": (1, 1, 0), "Ben": (1, 0, 1)}
    assert by_name(smudge["opponents"]) == {"Dan": (2, 1, 1), "Ben": (1, 1, 0), "Cat": (1, 0, 1)}
    assert smudge["partners"][0]["points_for"] > smudge["partners"][0]["points_against"]
    assert records["minimum_games"] == 3 and smudge["best_partnership"] is None


def test_cutthroat_spades_reads_its_sides_from_the_ruleset(league, players, owner):
    ann = players[0]
    stored_game(league, players, game_type="spades", winner="E", options={"partnerships": False},
                totals={"N": 150, "E": 310, "S": 90, "W": 40})
    spades = line(player_records_view(player=ann, user=owner), "spades")
    assert spades["partners"] == []
    assert {entry["player"]["name"]: (entry["points_for"], entry["points_against"])
            for entry in spades["opponents"]} == {"Ben": (150, 310), "Cat": (150, 90), "Dan": (150, 40)}


def test_only_finished_games_count(league, players, owner, seats):
    stored_game(league, players)
    stored_game(league, players, status="in_progress")
    abandoned = game_start(game_type="smudge", seats=seats, by=owner, league=league)
    game_abandon(game=abandoned, by=owner)
    assert line(player_records_view(player=players[0], user=owner))["played"] == 1


def test_league_game_type_and_dates_narrow_the_games(league, players, owner):
    other = league_create(name="Other Club", by=owner)
    stored_game(league, players, finished_at=datetime(2025, 3, 31, 23, 30, tzinfo=UTC))
    stored_game(league, players, finished_at=datetime(2025, 4, 1, 0, 30, tzinfo=UTC))
    stored_game(other, players, finished_at=datetime(2025, 4, 30, 12, tzinfo=UTC))
    stored_game(league, players, game_type="trumps", finished_at=datetime(2025, 5, 1, 12, tzinfo=UTC))
    ann = players[0]
    assert line(player_records_view(player=ann, user=owner))["played"] == 3
    assert line(player_records_view(player=ann, user=owner, league=other.pk))["played"] == 1
    # A season of April 2025: the days at both ends count.
    april = player_records_view(player=ann, user=owner, finished_from=date(2025, 4, 1),
                                finished_until=date(2025, 4, 30))
    assert [(entry["game_type"], entry["played"]) for entry in april["game_types"]] == [("smudge", 2)]
    only_trumps = player_records_view(player=ann, user=owner, game_type="trumps")
    assert [(entry["game_type"], entry["played"]) for entry in only_trumps["game_types"]] == [("trumps", 1)]
    # A game type asked for is listed even with nothing in it.
    empty = player_records_view(player=ann, user=owner, game_type="thieving_stink")
    assert [(entry["game_type"], entry["played"]) for entry in empty["game_types"]] == [("thieving_stink", 0)]


def test_private_league_and_casual_games_count_only_for_those_who_may_see_them(league, players, owner,
                                                                                 stranger, make_user):
    secret = league_create(name="Secret", by=owner, is_public=False)
    stored_game(league, players)
    stored_game(secret, players)
    casual = stored_game(None, players, by=owner)
    for viewer in (AnonymousUser(), stranger):
        assert line(player_records_view(player=players[0], user=viewer))["played"] == 1
    assert line(player_records_view(player=players[0], user=owner))["played"] == 3
    # A casual game made public counts for everyone.
    casual.is_public = True
    casual.save()
    assert line(player_records_view(player=players[0], user=stranger))["played"] == 2
    # The player's own account sees the casual games they sat in.
    ann_user = make_user("ann")
    players[0].user = ann_user
    players[0].save()
    casual.is_public = False
    casual.save()
    assert line(player_records_view(player=players[0], user=ann_user))["played"] == 2


@pytest.mark.parametrize("rounds", [1, 8])
def test_a_fixed_number_of_queries_whatever_the_games_partners_and_opponents(league, owner, players, rounds,
                                                                             django_assert_num_queries):
    ann = players[0]
    others = [player_create(name=f"Player {n}", by=owner, league=league) for n in range(3 * rounds)]
    for n in range(rounds):
        for partner, left, right in [others[3 * n: 3 * n + 3]] * 3:
            stored_game(league, [ann, left, partner, right], winner="NS" if n % 2 else "EW")
    with django_assert_num_queries(2):  # what the records are counted from, then the games
        records = player_records_view(player=ann, user=owner)
    with django_assert_num_queries(1):  # kept: what they are counted from alone
        assert player_records_view(player=ann, user=owner) == records
    smudge = line(records)
    assert smudge["played"] == 3 * rounds and len(smudge["partners"]) == rounds
    assert len(smudge["opponents"]) == 2 * rounds
    assert smudge["best_partnership"] is not None


def test_a_real_trumps_game_from_hands(play_game, players, owner):
    play_game("trumps", winner="EW")
    trumps = line(player_records_view(player=players[1], user=owner), "trumps")
    assert trumps["won"] == 1 and by_name(trumps["partners"]) == {"Dan": (1, 1, 0)}


def test_kept_records_follow_a_new_game_a_changed_result_and_a_rename(league, owner, players):
    ann, ben, cat, dan = players
    game = stored_game(league, [ann, ben, cat, dan], winner="NS")
    assert line(player_records_view(player=ann, user=owner))["won"] == 1
    stored_game(league, [ann, ben, cat, dan], winner="EW")
    assert line(player_records_view(player=ann, user=owner))["played"] == 2
    game.winner, game.totals = "EW", {"NS": 10, "EW": 21}
    game.save()
    assert line(player_records_view(player=ann, user=owner))["won"] == 0
    cat.name = "Catherine"
    cat.save()
    [partner] = line(player_records_view(player=ann, user=owner))["partners"]
    assert partner["player"]["name"] == "Catherine"

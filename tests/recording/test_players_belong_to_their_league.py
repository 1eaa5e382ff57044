"""A player belongs to one league: another league's owner cannot seat, link, rename, claim or merge them, and a
person who plays in two leagues is a player in each, linked to their one account. Data from before the rule
is repaired by a migration that loses no game."""

from __future__ import annotations

import importlib
import io

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.urls import reverse

from games.models import Game, League, Match, Player, PlayerClaim
from games.models.standings import StandingsWatermark
from games.services import game_start, hand_record, league_create, player_create, player_link
from games.standings.services import league_standings_recompute
from tests.conftest import join

pytestmark = pytest.mark.django_db

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


def api_client(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def attacker(make_user):
    return make_user("owner_b")


@pytest.fixture
def their_league(attacker):
    return league_create(name="League B", by=attacker)


def test_the_takeover_of_another_leagues_players_is_refused_at_every_step(attacker, their_league, league, players,
                                                                         seats, owner):
    client = api_client(attacker)
    started = client.post("/api/v1/games/", {"game_type": "spades", "league": their_league.pk, "seats": seats},
                          format="json")
    assert started.status_code == 400, started.content
    assert f"there is no player {players[0].pk} in League B (seat N)" in started.content.decode()
    ann = players[0]
    assert client.post(f"/api/v1/leagues/{their_league.pk}/players/{ann.pk}/link/", {"username": "owner_b"},
                       format="json").status_code == 404
    assert client.patch(f"/api/v1/players/{ann.pk}/", {"name": "Mine now"}, format="json").status_code == 403
    ann.refresh_from_db()
    assert (ann.name, ann.user_id, list(ann.leagues.all())) == ("Ann", None, [league])
    # The league's own owner still links its player.
    join(league, attacker, "member", owner)
    assert player_link(league=league, player=ann, user=attacker, by=owner).user == attacker


def test_new_names_at_a_leagues_table_become_its_players(attacker, their_league):
    from games.services import table_start

    game = table_start(game_type="spades", seats={"N": "Zoe", "E": "Yan", "S": "Xia", "W": "Wes"}, by=attacker,
                       league=their_league)
    assert all(list(player.leagues.all()) == [their_league] for player in game.seats.values())


def test_a_player_is_on_one_roster_at_most(league, players, their_league):
    their_league.players.add(players[0])  # the roster's unique index keeps the player where they are
    assert list(players[0].leagues.all()) == [league]
    with pytest.raises(IntegrityError), transaction.atomic():
        League.players.through.objects.create(league=their_league, player=players[0])


def test_one_person_in_two_leagues_is_a_player_in_each_and_their_profile_shows_both(
        client, league, players, owner, attacker, their_league, make_user):
    ann_user = make_user("ann")
    join(league, ann_user, "member", owner)
    join(their_league, ann_user, "member", attacker)
    in_b = player_create(name="Ann", by=attacker, league=their_league)
    player_link(league=league, player=players[0], user=ann_user, by=owner)
    player_link(league=their_league, player=in_b, user=ann_user, by=attacker)
    client.force_login(ann_user)
    profile = client.get(reverse("profile")).content.decode()
    assert "Thursday Club" in profile and "League B" in profile
    me = client.get("/api/v1/me/").json()
    assert sorted(player["leagues"] for player in me["players"]) == [[league.pk], [their_league.pk]]


# --- the repair of data from before the rule ---------------------------------------------------------------


MIGRATION = ("games", "0015_players_belong_to_one_league")
INDEX = ("games", "0016_a_player_on_one_roster")


def one_league_per_player() -> None:
    importlib.import_module(f"games.migrations.{MIGRATION[1]}").one_league_per_player(apps, None)


class RepairFunction:
    """The repair on any database: the roster's unique index dropped (the data as it could be before the rule),
    then the migration's function run on today's models. The test's transaction undoes the drop (PostgreSQL
    and SQLite both roll back DDL)."""

    def before(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX one_league_per_player")

    def run(self) -> None:
        one_league_per_player()


class RepairMigration:
    """The migrations themselves, as ``manage.py migrate`` runs them on PostgreSQL: the index undone and both
    recorded as not applied (the later migrations stay, so today's models still fit the tables), the data made
    then, and the two migrated forward one at a time. Their DDL rolls back with the test."""

    def before(self) -> None:
        committed()
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX one_league_per_player")
        recorder = MigrationRecorder(connection)
        for migration in (INDEX, MIGRATION):
            recorder.record_unapplied(*migration)

    def run(self) -> None:
        for target in (MIGRATION, INDEX):
            committed()
            MigrationExecutor(connection).migrate([target])
        with connection.cursor() as cursor:
            indexes = connection.introspection.get_constraints(cursor, League.players.through._meta.db_table)
        assert indexes["one_league_per_player"]["unique"]


def committed() -> None:
    """Run the foreign-key checks PostgreSQL defers to the commit, as the commit between two migrations does
    (the test's transaction never commits): a table with checks pending can be given no index and no column."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.fixture(params=["function", pytest.param("migration", marks=pytest.mark.services)])
def repair(request):
    if request.param == "migration":
        request.getfixturevalue("postgres")
        return RepairMigration()
    return RepairFunction()


def hands_by_game() -> dict[int, list[tuple]]:
    return {game.pk: list(game.hands.order_by("number").values_list("number", "record", "delta", "totals"))
            for game in Game.objects.all()}


def test_the_repair_splits_a_player_taken_into_another_league_and_loses_no_game(
        repair, league, players, seats, owner, attacker, their_league, make_user):
    repair.before()
    ann = players[0]
    game_c = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 100})
    hand_record(game=game_c, record=HAND, by=owner)
    hand_record(game=game_c, record=HAND, by=owner)
    league_standings_recompute(league_id=league.pk)
    # The takeover as the old code let it happen: B seated C's players, and B's owner linked Ann to themself.
    their_league.players.add(*players)
    game_b = game_start(game_type="spades", seats=seats, by=attacker, league=their_league, options={"target": 100})
    hand_record(game=game_b, record=HAND, by=attacker)
    league_standings_recompute(league_id=their_league.pk)
    Player.objects.filter(pk=ann.pk).update(user=attacker)
    claimer = make_user("claimer")
    join(their_league, claimer, "member", attacker)
    claim = PlayerClaim.objects.create(player=players[1], league=their_league, user=claimer)
    games_before = Game.objects.count()
    hands_before = hands_by_game()

    repair.run()

    ann.refresh_from_db()
    assert list(ann.leagues.all()) == [league] and ann.user_id is None  # owner_b is no member of C
    game_c.refresh_from_db()
    game_b.refresh_from_db()
    assert game_c.seat_ids == {seat: player.pk for seat, player in zip("NESW", players, strict=True)}
    copies = [game_b.north, game_b.east, game_b.south, game_b.west]
    assert [copy.name for copy in copies] == ["Ann", "Ben", "Cat", "Dan"]
    assert not {copy.pk for copy in copies} & {player.pk for player in players}
    assert all(list(copy.leagues.all()) == [their_league] for copy in copies)
    assert copies[0].user_id == attacker.pk  # a member of B, with no other player there: kept
    assert PlayerClaim.objects.get(pk=claim.pk).player_id == copies[1].pk
    assert Game.objects.count() == games_before and game_b.hand_count == 1 and game_c.hand_count == 2
    assert hands_by_game() == hands_before
    call_command("verify_games", stdout=io.StringIO())  # every game still replays to its stored totals
    assert not StandingsWatermark.objects.filter(league=their_league).exists()  # worked out again
    assert StandingsWatermark.objects.filter(league=league).exists()
    one_league_per_player()  # running it again changes nothing
    assert Player.objects.count() == 8


def test_the_repair_moves_a_match_to_the_copies(repair, league, players, seats, owner, their_league, attacker):
    from games.services import match_start

    repair.before()
    their_league.players.add(*players)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(created_by=owner)
    join(their_league, owner, "scorekeeper", attacker)
    match = match_start(game_type="trumps", seats=seats, by=owner, league=their_league)
    player_create(name="Eve", by=owner, league=league)
    game_start(game_type="spades", seats=seats, by=owner, league=league)

    repair.run()

    match.refresh_from_db()
    assert set(match.seating.values()).isdisjoint({p.pk for p in players})
    assert {game.north.leagues.get() for game in Match.objects.get(pk=match.pk).games.all()} == {their_league}
    assert all(list(player.leagues.all()) == [league] for player in players)
    assert League.objects.get(pk=their_league.pk).players.count() == 4

"""An owner backs a league up and restores it into a new league, from the pages and the API; the backup's
JSON Schema (docs/league-backup.schema.json) describes what is written."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import jsonschema
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.integrity import game_mismatches
from games.models import Game, League, Membership, Player, Season, Standing
from games.models.seasons import today
from games.models.standings import SeasonWatermark
from games.rules import RULESETS
from games.services.seasons import season_create
from games.services.transfer import league_export

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "league-backup.schema.json").read_text())


@pytest.fixture
def owner_page(client, owner):
    client.force_login(owner)
    return client


def test_the_owner_downloads_the_backup_from_the_league_page(owner_page, league, played):
    page = owner_page.get(f"/leagues/{league.slug}/").content.decode()
    assert f"/leagues/{league.slug}/backup.json" in page
    response = owner_page.get(f"/leagues/{league.slug}/backup.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-club-backup-')
    document = json.loads(response.getvalue())
    assert document["format"] == "scorekeeper-league" and len(document["games"]) == 2
    assert document["games"][0]["rules_version"] >= 1 and document["games"][0]["options"]["target"] == 100


def test_the_backup_is_the_owners(client, as_owner, client_for, member, stranger, anonymous, league, played):
    assert as_owner.get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 200
    assert client_for(member).get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 403
    assert anonymous.get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 401
    client.force_login(member)
    assert client.get(f"/leagues/{league.slug}/backup.json").status_code == 403
    assert "backup.json" not in client.get(f"/leagues/{league.slug}/").content.decode()


@pytest.fixture
def seasons(league, owner, played):
    """A season long closed, and the open one in which the games of ``played`` finished."""
    return [season_create(league=league, name="Spring 2020", by=owner, starts_on=date(2020, 3, 1),
                          ends_on=date(2020, 5, 31)),
            season_create(league=league, name="This season", by=owner, starts_on=today() - timedelta(days=30))]


def test_the_backup_follows_its_json_schema(league, played, seasons):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    document = league_export(league=league)
    jsonschema.validate(document, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert SCHEMA["$defs"]["game_type"]["enum"] == list(RULESETS)
    assert document["seasons"] == [
        {"name": "Spring 2020", "starts_on": "2020-03-01", "ends_on": "2020-05-31"},
        {"name": "This season", "starts_on": (today() - timedelta(days=30)).isoformat(), "ends_on": None},
    ]
    # A backup written before seasons were kept is valid too.
    del document["seasons"]
    jsonschema.validate(document, SCHEMA, format_checker=jsonschema.FormatChecker())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "seasons": [{"name": "Autumn", "starts_on": "1 September"}]}, SCHEMA,
                            format_checker=jsonschema.FormatChecker())


def upload(document, name="thursday-club-backup.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), content_type="application/json")


def test_restoring_makes_a_new_league_rescored_with_a_report(owner_page, owner, league, played,
                                                             django_capture_on_commit_callbacks):
    document = league_export(league=league)
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "",
                                                                 "slug": "", "idempotency_key": "k1"})
    restored = League.objects.get(slug="thursday-club-2")  # the backup's own address is taken
    assert response.status_code == 302 and response["Location"] == "/leagues/thursday-club-2/"
    assert Membership.objects.get(league=restored, user=owner).role == "owner"
    assert restored.name == "Thursday Club" and restored.players.count() == 4
    games = list(Game.objects.filter(league=restored).prefetch_related("hands"))
    assert sorted(game.status for game in games) == ["finished", "in_progress"]
    assert all(game_mismatches(game) == [] for game in games)
    # The backup's players are the restored league's own, new ones: its games seat them and no other.
    assert {pk for game in games for pk in game.seat_ids.values()} == set(restored.players.values_list("pk", flat=True))
    assert not restored.players.filter(pk__in=league.players.values("pk")).exists()
    assert Standing.objects.filter(league=restored, game_type="spades").exists()  # standings computed after
    page = owner_page.get(response["Location"]).content.decode()
    assert ("Thursday Club is restored. Imported 4 players, 2 games (2 Spades) with 3 hands; 1 finished, "
            "1 in progress.") in page


def test_a_backup_whose_games_do_not_rescore_imports_nothing_and_says_why(owner_page, league, played):
    document = league_export(league=league)
    document["games"][0]["hands"][1]["record"]["tricks"]["N"] = 5  # 14 tricks
    document["games"][1]["started_at"] = "last tuesday"
    leagues, players = League.objects.count(), Player.objects.count()

    response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Copy"})

    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported." in page and "2 problems in this backup" in page
    assert "game G1: hand 2: tricks add up to 14; they must add up to 13" in page
    assert "game G2: &quot;last tuesday&quot; is not a date and time (ISO 8601)" in page
    assert (League.objects.count(), Player.objects.count()) == (leagues, players)


@pytest.mark.parametrize(("content", "message"), [
    (b"not json at all", "this file is not a Scorekeeper backup (it is not JSON"),
    (b'{"format": "something-else"}', "not a scorekeeper-league document"),
    (b'{"format": "scorekeeper-league", "version": 2}', "version 2 is not supported (only 1)"),
])
def test_a_file_that_is_not_a_backup_is_refused(owner_page, content, message):
    leagues = League.objects.count()
    response = owner_page.post("/leagues/new/from-backup/",
                               {"backup": SimpleUploadedFile("x.json", content, content_type="application/json")})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert League.objects.count() == leagues


def test_restoring_needs_an_account(client):
    response = client.get("/leagues/new/from-backup/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_api_restores_with_a_report_once_per_key(as_owner, league, played):
    document = league_export(league=league)
    body = {"document": document, "name": "Thursday Club (copy)", "slug": "thursday-copy"}
    first = as_owner.post("/api/v1/leagues/import/", body, format="json", HTTP_IDEMPOTENCY_KEY="restore-1")
    again = as_owner.post("/api/v1/leagues/import/", body, format="json", HTTP_IDEMPOTENCY_KEY="restore-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["league"]["slug"] == "thursday-copy"
    assert first.json()["report"] == {"players": 4, "seasons": 0, "games": 2, "finished": 1, "in_progress": 1, "abandoned": 0,
                                      "hands": 3, "matches": 0, "nights": 0, "game_types": {"Spades": 2},
                                      "summary": "Imported 4 players, 2 games (2 Spades) with 3 hands; "
                                                 "1 finished, 1 in progress."}
    assert League.objects.filter(slug="thursday-copy").count() == 1


def test_the_api_lists_every_problem_and_stores_nothing(as_owner, anonymous, league, played):
    document = league_export(league=league)
    document["games"][0]["seats"]["N"] = "P99"
    document["games"][1]["hands"][0]["record"] = {"bids": "many"}
    leagues = League.objects.count()
    response = as_owner.post("/api/v1/leagues/import/", {"document": document}, format="json")
    assert response.status_code == 400
    assert response.json()["document"][0] == 'game G1: seat N names "P99", who is not among the players'
    assert response.json()["document"][1].startswith("game G2: hand 1:")
    assert League.objects.count() == leagues
    assert anonymous.post("/api/v1/leagues/import/", {"document": document}, format="json").status_code == 401


def test_a_restore_keeps_the_seasons_and_computes_their_standings(as_owner, league, played, seasons,
                                                                  django_capture_on_commit_callbacks):
    document = league_export(league=league)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_owner.post("/api/v1/leagues/import/", {"document": document, "slug": "thursday-copy"},
                                 format="json")
    assert response.status_code == 201
    assert response.json()["report"]["seasons"] == 2
    assert response.json()["report"]["summary"].startswith("Imported 4 players, 2 seasons, 2 games (2 Spades)")
    restored = League.objects.get(slug="thursday-copy")
    assert [(season.name, season.starts_on, season.ends_on) for season in restored.seasons.order_by("starts_on")] == [
        (season.name, season.starts_on, season.ends_on) for season in seasons]
    # The restored league's backup is the same document, but for its address.
    assert league_export(league=restored) == {**document, "league": {**document["league"], "slug": "thursday-copy"}}
    # Each season's standings are computed once the restore is committed: the open one counts the finished
    # game, the old one nothing.
    copies = {season.name: season for season in restored.seasons.all()}
    assert SeasonWatermark.objects.filter(season__in=copies.values()).count() == 2
    assert Standing.objects.filter(season=copies["This season"], game_type="spades").exists()
    assert not Standing.objects.filter(season=copies["Spring 2020"]).exists()


def test_a_backup_written_before_seasons_restores_without_them(owner_page, league, played, seasons,
                                                               django_capture_on_commit_callbacks):
    document = league_export(league=league)
    del document["seasons"]
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Old copy",
                                                                 "slug": "old-copy"})
    assert response.status_code == 302 and response["Location"] == "/leagues/old-copy/"
    restored = League.objects.get(slug="old-copy")
    assert not restored.seasons.exists() and restored.players.count() == 4
    assert Standing.objects.filter(league=restored, season=None, game_type="spades").exists()


@pytest.mark.parametrize(("season", "problem"), [
    ({"name": "Summer 2020", "starts_on": "2020-05-01", "ends_on": "2020-08-31"},
     'season "Summer 2020": the dates overlap "Spring 2020" (2020-03-01 to 2020-05-31); a game belongs to one '
     "season, so a league's seasons cannot overlap"),
    ({"name": "  this   SEASON ", "starts_on": "2019-01-01", "ends_on": "2019-12-31"},
     'season "this SEASON": the backup has another season named "This season"; the seasons of a league need '
     "different names (whatever the case)"),
    ({"name": "Autumn 2020", "starts_on": "2020-09-01", "ends_on": "2020-08-01"},
     'season "Autumn 2020": a season cannot end (2020-08-01) before it starts (2020-09-01)'),
    ({"name": "Autumn 2020", "starts_on": "1 September"},
     'season "Autumn 2020": "starts_on" is "1 September": a date is written YYYY-MM-DD, e.g. 2026-09-01'),
])
def test_a_backup_whose_seasons_break_the_rules_imports_nothing(as_owner, league, played, seasons, season, problem):
    document = league_export(league=league)
    document["seasons"].append(season)
    counts = League.objects.count(), Season.objects.count(), Player.objects.count(), Game.objects.count()
    response = as_owner.post("/api/v1/leagues/import/", {"document": document, "slug": "thursday-copy"},
                             format="json")
    assert response.status_code == 400
    assert response.json()["document"] == [problem]
    assert (League.objects.count(), Season.objects.count(), Player.objects.count(), Game.objects.count()) == counts


def test_season_problems_are_listed_with_the_games_on_the_restore_page(owner_page, league, played, seasons):
    document = league_export(league=league)
    document["seasons"][0]["ends_on"] = None  # open from 2020 on: it overlaps the season of today
    document["games"][0]["hands"][1]["record"]["tricks"]["N"] = 5
    seasons_before = Season.objects.count()
    response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Copy"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported." in page and "2 problems in this backup" in page
    assert "season &quot;This season&quot;: the dates overlap &quot;Spring 2020&quot; (2020-03-01 on, still open)" in page
    assert "game G1: hand 2: tricks add up to 14; they must add up to 13" in page
    assert not League.objects.filter(name="Copy").exists() and Season.objects.count() == seasons_before

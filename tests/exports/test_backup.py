"""An owner backs a league up and restores it into a new league, from the pages and the API; the backup's
JSON Schema (docs/league-backup.schema.json) describes what is written."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.integrity import game_mismatches
from games.models import Game, League, Membership, Player, Standing
from games.rules import RULESETS
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
    document = json.loads(response.content)
    assert document["format"] == "scorekeeper-league" and len(document["games"]) == 2
    assert document["games"][0]["rules_version"] >= 1 and document["games"][0]["options"]["target"] == 100


def test_the_backup_is_the_owners(client, as_owner, client_for, member, stranger, anonymous, league, played):
    assert as_owner.get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 200
    assert client_for(member).get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 403
    assert anonymous.get(f"/api/v1/leagues/{league.pk}/backup/").status_code == 401
    client.force_login(member)
    assert client.get(f"/leagues/{league.slug}/backup.json").status_code == 403
    assert "backup.json" not in client.get(f"/leagues/{league.slug}/").content.decode()


def test_the_backup_follows_its_json_schema(league, played):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(league_export(league=league), SCHEMA, format_checker=jsonschema.FormatChecker())
    assert SCHEMA["$defs"]["game_type"]["enum"] == list(RULESETS)


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
    assert first.json()["report"] == {"players": 4, "games": 2, "finished": 1, "in_progress": 1, "abandoned": 0,
                                      "hands": 3, "matches": 0, "game_types": {"Spades": 2},
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
    assert response.json()["document"][0] == "game G1: seats must name a listed player for each of N, E, S, W"
    assert response.json()["document"][1].startswith("game G2: hand 1:")
    assert League.objects.count() == leagues
    assert anonymous.post("/api/v1/leagues/import/", {"document": document}, format="json").status_code == 401

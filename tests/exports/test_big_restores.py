"""A backup too big to restore while its request waits is stored and restored in the background
(docs/league-backup.md): the API answers 202 with a restore to follow, the page a progress page; the league it
makes is the one a restore in the request makes, a refusal lists the same problems and creates nothing, and
only whoever uploaded it sees it. The threshold is set low here, so that a small league takes that path."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Game, Hand, League, LeagueRestore, Match, Player, RestoreChunk, Season, Standing
from games.services import restore_uploads
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export
from tests.exports.test_backup_nights import nights  # noqa: F401  (a league with club nights)

pytestmark = pytest.mark.django_db


@pytest.fixture
def big(settings, monkeypatch):
    """Anything over 300 bytes restores in the background, stored in chunks of 512 bytes."""
    settings.RESTORE_IN_REQUEST_BYTES = 300
    monkeypatch.setattr(restore_uploads, "CHUNK_BYTES", 512)


@pytest.fixture
def owner_page(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def rich(league, owner, nights):  # noqa: F811
    """A league with two club nights: their players, tables and games, and a substitution."""
    return league


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (League, Player, Season, Match, Game, Hand))


def as_document(league: League, slug: str) -> dict:
    """The league's backup, but for its address (what a restore of the same backup differs in)."""
    document = league_export(league=league)
    document["league"]["slug"] = slug
    return document


def post_backup(client, document, query: str = "", **headers):
    return client.post(f"/api/v1/leagues/imports/{query}", json.dumps(document).encode(),
                       content_type="application/json", **headers)


def test_a_big_backup_restores_in_the_background_to_the_league_a_request_makes(
        as_owner, owner, rich, big, django_capture_on_commit_callbacks):
    document = league_export(league=rich)
    in_request = league_restore(document={**document, "league": {**document["league"], "slug": "small-copy"}},
                                by=owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_backup(as_owner, document, "?slug=big-copy&name=Big%20copy")
    assert response.status_code == 202, response.content
    restore = LeagueRestore.objects.get()
    assert response["Location"] == f"/api/v1/leagues/imports/{restore.pk}/"
    assert response.json()["state"] == "queued" and response.json()["progress"]["bytes"] == restore.size

    followed = as_owner.get(response["Location"]).json()
    assert followed["state"] == "done"
    games = sum(in_request.games.values())
    assert games > 2
    assert followed["progress"] == {"games": games, "checked": games, "written": games, "bytes": restore.size,
                                    "bytes_checked": restore.size}
    assert followed["league"]["slug"] == "big-copy" and followed["league"]["name"] == "Big copy"
    assert followed["report"]["summary"] == in_request.sentence() and followed["problems"] is None
    restored = League.objects.get(slug="big-copy")
    assert as_document(restored, "x") == {**as_document(in_request.league, "x"),
                                          "league": {**as_document(in_request.league, "x")["league"],
                                                     "name": "Big copy"}}
    assert Standing.objects.filter(league=restored, game_type="spades").exists()  # computed once committed
    assert not RestoreChunk.objects.exists()  # the upload is gone once restored


def test_a_small_backup_sent_as_the_file_restores_in_the_request(as_owner, league, played):
    response = post_backup(as_owner, league_export(league=league), "?slug=copy")
    assert response.status_code == 201
    assert response.json()["league"]["slug"] == "copy"
    assert response.json()["report"]["summary"].startswith("Imported 4 players, 2 games")
    assert not LeagueRestore.objects.exists()


def test_progress_is_visible_while_it_waits_and_only_to_whoever_uploaded_it(
        as_owner, client_for, stranger, anonymous, league, played, big):
    response = post_backup(as_owner, league_export(league=league))  # not committed: the task is not run
    assert response.status_code == 202
    location = response["Location"]
    waiting = as_owner.get(location).json()
    assert waiting["state"] == "queued"
    assert waiting["progress"] == {"games": None, "checked": 0, "written": 0,
                                   "bytes": len(json.dumps(league_export(league=league)).encode()),
                                   "bytes_checked": 0}
    assert waiting["league"] is None and waiting["report"] is None and waiting["problems"] is None
    assert client_for(stranger).get(location).status_code == 404
    assert anonymous.get(location).status_code == 401


def test_a_refused_big_backup_lists_the_problems_a_request_lists_and_creates_nothing(
        as_owner, owner, league, played, big, django_capture_on_commit_callbacks):
    document = league_export(league=league)
    document["league"]["slug"] = "copy"
    document["games"][0]["seats"]["N"] = "P99"
    document["games"][1]["hands"][0]["record"] = {"bids": "many"}
    document["league"]["is_public"] = "false"
    with pytest.raises(ImportRefused) as in_request:
        league_restore(document=copy.deepcopy(document), by=owner)
    before = counts()
    with django_capture_on_commit_callbacks(execute=True):
        response = post_backup(as_owner, document)
    assert response.status_code == 202
    followed = as_owner.get(response["Location"]).json()
    assert followed["state"] == "refused"
    assert followed["problems"] == in_request.value.problems
    assert followed["problems"][0] == 'league: "is_public" must be true or false, not "false"'
    assert followed["league"] is None and followed["report"] is None
    assert counts() == before
    assert not RestoreChunk.objects.exists()


def test_a_backup_with_many_broken_games_lists_twenty_and_says_how_many_more(owner, league, played, big,
                                                                             django_capture_on_commit_callbacks):
    document = league_export(league=league)
    game = document["games"][0]
    document["games"] = [{**copy.deepcopy(game), "key": f"G{n}", "seats": {**game["seats"], "N": "P99"}}
                         for n in range(1, 31)]
    body = json.dumps(document).encode()
    with pytest.raises(ImportRefused) as in_request:
        league_restore(document=json.loads(body), by=owner)
    with django_capture_on_commit_callbacks(execute=True):
        restore = restore_uploads.backup_accept([body], by=owner)
    restore.refresh_from_db()
    assert restore.state == "refused" and restore.problem_count == 30
    assert restore.problems == in_request.value.problems
    assert restore.problems[:2] == ['game G1: seat N names "P99", who is not among the players',
                                    'game G2: seat N names "P99", who is not among the players']
    assert restore.problems[20:] == ["and 10 more problems"]


def test_the_same_upload_sent_again_with_its_key_is_the_same_restore(as_owner, league, played, big,
                                                                      django_capture_on_commit_callbacks):
    document = league_export(league=league)
    with django_capture_on_commit_callbacks(execute=True):
        first = post_backup(as_owner, document, "?slug=copy", HTTP_IDEMPOTENCY_KEY="big-1")
        again = post_backup(as_owner, document, "?slug=copy", HTTP_IDEMPOTENCY_KEY="big-1")
    assert first.status_code == again.status_code == 202
    assert first["Location"] == again["Location"]
    assert LeagueRestore.objects.count() == 1 and League.objects.filter(slug="copy").count() == 1
    document["league"]["name"] = "Another"
    other = post_backup(as_owner, document, "?slug=copy", HTTP_IDEMPOTENCY_KEY="big-1")
    assert other.status_code == 422


@pytest.mark.parametrize(("body", "message"), [
    (b"not json at all " * 40, "this file is not a Scorekeeper backup (it is not JSON"),
    (b'{"format": "something-else", "players": [' + b'{"key": "P1"},' * 40, "not a scorekeeper-league document"),
    (b'{"format": "scorekeeper-league", "version": 2, "games": [' + b"{}," * 200, "version 2 is not supported"),
    (b"[" + b"1," * 300 + b"1]", "not a scorekeeper-league document"),
])
def test_a_big_upload_that_is_not_a_backup_is_a_400_at_once(as_owner, big, body, message):
    response = as_owner.post("/api/v1/leagues/imports/", body, content_type="application/json")
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert not LeagueRestore.objects.exists() and not RestoreChunk.objects.exists()


def test_an_upload_over_the_cap_is_a_413_and_keeps_nothing(as_owner, league, played, big, settings):
    settings.RESTORE_MAX_BYTES = 1000
    response = post_backup(as_owner, league_export(league=league))
    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"
    assert "the backup is larger than" in response.json()["detail"]
    assert not LeagueRestore.objects.exists() and not RestoreChunk.objects.exists()


def test_the_file_is_sent_as_json(as_owner):
    response = as_owner.post("/api/v1/leagues/imports/", b"x=1", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


def test_a_big_backup_broken_in_the_middle_is_refused_as_not_json(owner, league, played, big,
                                                                  django_capture_on_commit_callbacks):
    body = json.dumps(league_export(league=league)).encode()
    with django_capture_on_commit_callbacks(execute=True):
        restore = restore_uploads.backup_accept([body[: len(body) // 2]], by=owner)
    restore.refresh_from_db()
    assert restore.state == "refused"
    assert restore.problems[0].startswith("this file is not a Scorekeeper backup (it is not JSON: ")


def upload(document, name="thursday-club-backup.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), content_type="application/json")


def test_the_page_shows_the_progress_and_then_the_report(owner_page, owner, rich, big,
                                                         django_capture_on_commit_callbacks):
    document = league_export(league=rich)
    in_request = league_restore(document={**document, "league": {**document["league"], "slug": "small-copy"}},
                                by=owner)
    response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Page copy",
                                                             "slug": "page-copy", "idempotency_key": "p1"})
    restore = LeagueRestore.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/restores/{restore.pk}/"
    waiting = owner_page.get(response["Location"])
    page = waiting.content.decode()
    assert waiting.status_code == 200
    assert '<meta http-equiv="refresh"' in page and "Waiting to start" in page

    from games.tasks import league_restore as task

    with django_capture_on_commit_callbacks(execute=True):
        task(restore.pk)
    done = owner_page.get(response["Location"]).content.decode()
    assert '<meta http-equiv="refresh"' not in done
    assert f"Page copy is restored. {in_request.sentence()}" in done
    assert 'href="/leagues/page-copy/"' in done
    # The form sent again (its key) leads to the same restore.
    again = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Page copy",
                                                          "slug": "page-copy", "idempotency_key": "p1"})
    assert again["Location"] == response["Location"] and LeagueRestore.objects.count() == 1


def test_the_page_lists_the_problems_of_a_refused_big_backup(owner_page, league, played, big, stranger, client,
                                                             django_capture_on_commit_callbacks):
    document = league_export(league=league)
    document["games"][0]["hands"][1]["record"]["tricks"]["N"] = 5
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_page.post("/leagues/new/from-backup/", {"backup": upload(document), "name": "Copy"})
    page = owner_page.get(response["Location"]).content.decode()
    assert "Nothing was imported." in page and "1 problem in this backup" in page
    assert "game G1: hand 2: tricks add up to 14; they must add up to 13" in page
    assert not League.objects.filter(name="Copy").exists()
    client.force_login(stranger)
    assert client.get(response["Location"]).status_code == 404


def test_a_backup_whose_games_come_first_restores_the_same(owner, league, played, big,
                                                           django_capture_on_commit_callbacks):
    """The parser reads the head whatever the order of the document's fields: the games may come before the
    players and matches they name."""
    document = league_export(league=league)
    reordered = {"games": document.pop("games"), **document}
    reordered["league"]["slug"] = "reordered"
    body = json.dumps(reordered).encode()
    assert body.startswith(b'{"games": [')
    with django_capture_on_commit_callbacks(execute=True):
        restore = restore_uploads.backup_accept([body], by=owner)
    restore.refresh_from_db()
    assert restore.state == "done", restore.problems
    assert as_document(League.objects.get(slug="reordered"), "x") == as_document(league, "x")


def test_the_progress_page_says_how_far_the_check_and_the_writing_have_got(owner_page, as_owner, owner):
    from django.core.cache import cache

    restore = LeagueRestore.objects.create(created_by=owner, size=1000, sha256="x", state="checking",
                                           games_total=12_000, games_checked=4_500, bytes_read=400)
    page = owner_page.get(f"/leagues/restores/{restore.pk}/").content.decode()
    assert "Checking the backup" in page and "Checked 4,500 of 12,000 games (40% of the file)" in page
    assert '<meta http-equiv="refresh"' in page

    restore.state, restore.games_checked, restore.bytes_read = "writing", 12_000, 1000
    restore.save()
    cache.set(restore_uploads.written_key(restore.pk), 3_000)  # the writing transaction is not committed yet
    page = owner_page.get(f"/leagues/restores/{restore.pk}/").content.decode()
    assert "Written 3,000 of 12,000 games" in page
    assert as_owner.get(f"/api/v1/leagues/imports/{restore.pk}/").json()["progress"] == {
        "games": 12_000, "checked": 12_000, "written": 3_000, "bytes": 1000, "bytes_checked": 1000}


def test_nothing_sent_is_a_missing_backup(as_owner):
    response = as_owner.generic("POST", "/api/v1/leagues/imports/", content_type="")
    assert response.status_code == 400
    assert "no backup was sent" in response.content.decode()
    assert not LeagueRestore.objects.exists()

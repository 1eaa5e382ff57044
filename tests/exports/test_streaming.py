"""A league's backup and its games CSV are sent as they are read: a batch of games at a time, in a fixed number of
queries a batch, so that a league of any size starts downloading at once in the memory of one batch."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import exports
from games.services import transfer
from games.services.transfer import league_export

from .conftest import HAND, rows_of


@pytest.fixture
def owner_page(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def five_games(league, owner, start_game, played):
    """Five games in all: two finished, three in progress."""
    from games.services import hand_record

    for _ in range(3):
        hand_record(game=start_game("spades", target=500), record=HAND, by=owner)


def chunks(response) -> list[bytes]:
    assert response.streaming, "a download sent as it is read"
    return [bytes(chunk) for chunk in response.streaming_content]


@pytest.mark.parametrize("url", ["/leagues/{slug}/backup.json", "/api/v1/leagues/{pk}/backup/"])
def test_the_backup_comes_a_batch_of_games_at_a_time_and_reads_whole(owner_page, as_owner, league, five_games,
                                                                     monkeypatch, url):
    monkeypatch.setattr(transfer, "BATCH", 2)
    client = as_owner if url.startswith("/api/") else owner_page
    response = client.get(url.format(slug=league.slug, pk=league.pk))
    assert response.status_code == 200 and response["Content-Disposition"].startswith('attachment; filename="')
    pieces = chunks(response)
    # The head (settings, players, seasons, matches), three batches of games (2, 2, 1), the end.
    assert len(pieces) == 5 and b'"games"' in pieces[0] and b'"hands"' not in pieces[0]
    document = json.loads(b"".join(pieces))
    assert [game["key"] for game in document["games"]] == ["G1", "G2", "G3", "G4", "G5"]
    assert document == league_export(league=league)


def test_the_backup_reads_the_same_number_of_queries_a_batch_whatever_the_league(league, five_games, monkeypatch):
    def queries(batch: int) -> int:
        monkeypatch.setattr(transfer, "BATCH", batch)
        with CaptureQueriesContext(connection) as captured:
            for _ in transfer.league_backup(league=league):
                pass
        return len(captured)

    one_batch, five_batches = queries(5), queries(1)
    # Each batch more costs one query for its hands (and, on PostgreSQL, one fetch of the games' cursor).
    assert one_batch < five_batches <= one_batch + 4 * 2


def test_an_empty_league_backs_up_with_no_games(owner_page, league):
    document = json.loads(b"".join(chunks(owner_page.get(f"/leagues/{league.slug}/backup.json"))))
    assert document["games"] == [] and document["format"] == "scorekeeper-league"


def test_the_games_csv_comes_as_its_rows_are_read(client, league, five_games, monkeypatch):
    monkeypatch.setattr(exports, "ROWS_AT_A_TIME", 2)
    pieces = chunks(client.get(f"/leagues/{league.slug}/games.csv"))
    # The header on its own (before any game is read), two rows, two rows, the last row.
    assert len(pieces) == 4 and rows_of(pieces[0])[0][0] == "Game" and pieces[0].count(b"\n") == 1
    header, *rows = rows_of(b"".join(pieces))
    assert header[0] == "Game" and len(rows) == 5
    assert [row[0] for row in rows] == sorted((row[0] for row in rows), key=int)

"""On PostgreSQL a hand is recorded in two round trips to the server: the BEGIN with the locked read, the writes
with the COMMIT (``games.statements.transaction``), with every guarantee of recording kept.

These run outside a test's own transaction (``transaction=True``), as a request does; the libpq trace of the
connection shows what goes to the server and when the answers come back.
"""

from __future__ import annotations

import os
import tempfile
from unittest import mock

import pytest
from django.db import connection

from games.errors import HandConflict, IdempotencyMismatch
from games.models import ChangedResult, Game, Hand, IdempotencyRecord, WebhookEndpoint
from games.rules import InvalidHand
from games.services import hand_record, match_start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres")]

HAND = {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}}
WINNING = {"face_cards": {"NS": 16, "EW": 0}, "trump_stack": {"holder": "N", "size": 10}}


class Trace:
    """The protocol messages of the connection while the block runs (libpq's trace): what was sent in each
    round trip, a round trip being the messages sent before the server next answers. A statement sent by the
    name it was prepared under (``Bind``) is shown with its text, as the server keeps it."""

    def __enter__(self) -> Trace:
        from psycopg import pq

        connection.ensure_connection()
        self.file = tempfile.TemporaryFile(mode="w+")
        self.pgconn = connection.connection.pgconn
        self.pgconn.trace(self.file.fileno())
        self.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc) -> None:
        self.pgconn.untrace()
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.seek(0)
        self.round_trips: list[list[str]] = []
        self.prepared_statements_sent = 0
        with connection.cursor() as cursor:
            cursor.execute("SELECT name, statement FROM pg_prepared_statements")
            prepared = dict(cursor.fetchall())
        sending = False
        for line in self.file.read().splitlines():
            direction, _, kind, *rest = line.split("\t") if "\t" in line else line.split(None, 3)
            if direction == "F":
                if not sending:
                    self.round_trips.append([])
                    sending = True
                shown = kind + (" " + rest[0] if kind == "Parse" and rest else "")
                if kind == "Bind" and rest:
                    # Bind "portal" "statement" ...: an unnamed statement is the Parse before it.
                    name = rest[0].split('"')[3]
                    if name:
                        shown += f" {name}: {prepared[name]}"
                        self.prepared_statements_sent += 1
                self.round_trips[-1].append(shown)
            else:
                sending = False
        self.file.close()


@pytest.fixture
def game(start_game):
    return start_game("thieving_stink", target=100000)


def test_a_hand_is_two_round_trips_the_begin_with_the_read_and_the_commit_with_the_writes(game, owner):
    hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="warm")
    with Trace() as trace:
        hand_record(game=game, record=HAND, by=owner, expected_number=2, idempotency_key="k2")
    assert len(trace.round_trips) == 2, trace.round_trips
    read, write = (" ".join(sent) for sent in trace.round_trips)
    assert "BEGIN" in read and "FOR UPDATE" in read and "COMMIT" not in read
    assert "games_hand" in write and "games_game" in write and "games_idempotencyrecord" in write
    assert write.index("games_idempotencyrecord") < write.index("COMMIT")
    assert Hand.objects.filter(game=game).count() == 2


def test_a_hands_statements_are_prepared_once_a_connection_and_then_sent_by_name(game, owner):
    hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="k1")
    with Trace() as trace:
        hand_record(game=game, record=HAND, by=owner, expected_number=2, idempotency_key="k2")
    sent = " ".join(message for round_trip in trace.round_trips for message in round_trip)
    assert trace.prepared_statements_sent == 4, trace.round_trips  # the locked read, the hand, the game, the key
    assert "Parse" not in sent.replace('Parse  "" "BEGIN"', "").replace('Parse  "" "COMMIT"', ""), sent


def test_another_hand_with_the_expected_number_taken_is_a_conflict_and_stores_nothing(game, owner):
    hand_record(game=game, record=HAND, by=owner, expected_number=1)
    with pytest.raises(HandConflict):
        hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="late")
    assert Hand.objects.filter(game=game).count() == 1
    assert not IdempotencyRecord.objects.filter(key="late").exists()
    assert connection.connection.info.transaction_status == 0  # idle: nothing left open


def test_the_same_key_again_gets_the_first_answer_and_a_new_body_with_it_is_refused(game, owner):
    first = hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="k1")
    again = hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="k1")
    assert again.replayed and again.payload == first.payload
    with pytest.raises(IdempotencyMismatch):
        hand_record(game=game, record=WINNING, by=owner, expected_number=2, idempotency_key="k1")
    assert Hand.objects.filter(game=game).count() == 1


def test_a_refused_hand_leaves_its_key_free(game, owner):
    with pytest.raises(InvalidHand):
        hand_record(game=game, record={"face_cards": {"NS": 20}}, by=owner, expected_number=1, idempotency_key="k1")
    assert not Hand.objects.filter(game=game).exists() and not IdempotencyRecord.objects.exists()
    assert hand_record(game=game, record=HAND, by=owner, expected_number=1, idempotency_key="k1").payload["number"] == 1


def test_the_last_hand_of_a_league_game_notes_it_in_the_same_commit(start_game, owner):
    game = start_game("thieving_stink", target=100)
    with Trace() as trace, mock.patch("games.tasks.queue_standings_update"):  # the update, here, would run at once
        result = hand_record(game=game, record=WINNING, by=owner, expected_number=1)
    assert result.game.status == Game.Status.FINISHED
    assert len(trace.round_trips) == 2
    assert "games_changedresult" in " ".join(trace.round_trips[1])
    assert list(ChangedResult.objects.values_list("game_id", flat=True)) == [game.pk]


def test_a_hand_that_ends_a_match_is_recorded_in_djangos_transaction(owner, seats, league):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    hand = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7}
    for _ in range(3):
        game = match.games.order_by("-match_game_number").first()
        hand_record(game=game, record=hand, by=owner)
    match.refresh_from_db()
    assert match.status == "finished" and match.games.count() == 3


def test_webhooks_are_looked_up_after_a_hand_only_in_a_league_that_has_them(game, owner, league):
    with Trace() as none:
        hand_record(game=game, record=HAND, by=owner)
    WebhookEndpoint.objects.create(league=league, url="https://example.org/hook", secret="whsec_" + "a" * 32,
                                   events=["hand.recorded"])
    with Trace() as some:
        hand_record(game=game, record=HAND, by=owner)
    assert len(none.round_trips) == 2
    assert "games_webhookendpoint" in " ".join(some.round_trips[2])

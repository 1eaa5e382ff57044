"""Writers of one league take turns on the league's row, and that turn never deadlocks with someone who holds one of
its players: the league's lock lets through rows that only point at the league (PostgreSQL, where locks are real)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Invitation, Player
from games.services import invitation_create, player_create, player_merge

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def test_a_merge_waiting_for_a_player_lets_an_invitation_for_that_player_through(postgres, league, owner):
    keep = player_create(name="Ann", by=owner, league=league)
    second = player_create(name="Ann B", by=owner, league=league)
    merging: dict = {}

    def merge() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                merging["pid"] = cursor.fetchone()[0]
            merging["kept"] = player_merge(league=league, keep=keep, merge=second, by=owner)
        except Exception as error:  # noqa: BLE001 - the test reads it
            merging["error"] = error
        finally:
            connection.close()

    merger = threading.Thread(target=merge)
    with transaction.atomic():
        # An invitation naming Ann locks her first; then the merge takes the league and waits for Ann.
        Player.objects.select_for_update().get(pk=keep.pk)
        merger.start()
        deadline = time.monotonic() + 10
        while not (merging.get("pid") and waiting_on_a_lock(merging["pid"])) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting_on_a_lock(merging["pid"]), "the merge never waited for Ann"
        # The invitation's row points at the league the merge holds: it must go through, not deadlock.
        invitation = invitation_create(league=league, role="member", by=owner, player=keep)
    merger.join(timeout=30)

    assert "error" not in merging, merging.get("error")
    assert merging["kept"].pk == keep.pk
    assert not Player.objects.filter(pk=second.pk).exists()
    assert Invitation.objects.get(pk=invitation.pk).player_id == keep.pk

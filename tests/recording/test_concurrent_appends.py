"""Several phones entering hands into one game at once: for each hand number exactly one
wins, none is lost, none doubled. Real threads, each with its own database connection."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.errors import HandConflict
from games.integrity import game_mismatches
from games.models import Game, Hand
from games.services import hand_record

HAND = {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}}
THREADS = 8
# Each test runs on whatever database the run has, and again where PostgreSQL's row locks are real.
DATABASES = ["any", pytest.param("postgres", marks=pytest.mark.services)]


def run_together(work, count: int) -> list:
    """Start ``count`` threads at the same instant; return what each returned or raised."""
    barrier = threading.Barrier(count)
    outcomes: list = [None] * count

    def worker(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = work(index)
        except Exception as error:  # noqa: BLE001 - the test inspects every outcome
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.fixture
def game(start_game):
    return start_game("thieving_stink", target=100000)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("database", DATABASES)
def test_racing_for_the_same_hand_number_exactly_one_wins(game, owner, database, request):
    if database == "postgres":
        request.getfixturevalue("postgres")
    outcomes = run_together(lambda n: hand_record(game=game, record=HAND, by=owner, expected_number=1), THREADS)
    winners = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(winners) == 1, outcomes
    assert all(isinstance(o, HandConflict) for o in outcomes if isinstance(o, Exception)), outcomes
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("database", DATABASES)
def test_racing_appends_are_all_kept_in_order(game, owner, database, request):
    if database == "postgres":
        request.getfixturevalue("postgres")
    outcomes = run_together(lambda n: hand_record(game=game, record=HAND, by=owner), THREADS)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert sorted(o.payload["number"] for o in outcomes) == list(range(1, THREADS + 1))
    assert game_mismatches(Game.objects.get(pk=game.pk)) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("database", DATABASES)
def test_racing_retries_with_one_idempotency_key_store_one_hand(game, owner, database, request):
    if database == "postgres":
        request.getfixturevalue("postgres")
    outcomes = run_together(lambda n: hand_record(game=game, record=HAND, by=owner, idempotency_key="k"), THREADS)
    # Each retry waits for the first on the game's row lock, then gets its answer: all succeed, one hand.
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert {o.payload["number"] for o in outcomes} == {1}
    assert sum(not o.replayed for o in outcomes) == 1
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("database", DATABASES)
def test_racing_retries_with_a_key_and_the_expected_number_store_one_hand(game, owner, database, request):
    """A phone's retry carries both; the first stores the hand, every other waits on the row lock and
    gets its answer."""
    if database == "postgres":
        request.getfixturevalue("postgres")
    outcomes = run_together(lambda n: hand_record(game=game, record=HAND, by=owner, expected_number=1,
                                                  idempotency_key="k"), THREADS)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert {o.payload["number"] for o in outcomes} == {1}
    assert sum(not o.replayed for o in outcomes) == 1
    assert Hand.objects.filter(game=game).count() == 1

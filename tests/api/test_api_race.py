"""Two phones (or five) send the same hand at once with the same ``expected_number``: one wins.

The real race needs PostgreSQL (row locks); the SQLite variant runs the same threads against
SQLite's single writer, which serialises them just as well.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Hand
from tests.api.conftest import SPADES_HAND

RACERS = 5


def race(game, users) -> list[int]:
    barrier = threading.Barrier(len(users))
    statuses: list[int] = []
    tokens = [Token.objects.get_or_create(user=user)[0].key for user in users]

    def post(token: str) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            barrier.wait()
            response = client.post(f"/api/v1/games/{game.pk}/hands/", {**SPADES_HAND, "expected_number": 1},
                                   format="json")
            statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


def racers(make_user, league, owner):
    from tests.conftest import join

    users = [owner]
    for n in range(RACERS - 1):
        user = make_user(f"keeper{n}")
        join(league, user, "scorekeeper", owner)
        users.append(user)
    return users


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_for_the_same_hand_on_postgres(postgres, make_user, league, owner, start_game):
    game = start_game("spades")
    assert race(game, racers(make_user, league, owner)) == [201] + [409] * (RACERS - 1)
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_for_the_same_hand_on_sqlite(make_user, league, owner, start_game):
    if connection.vendor != "sqlite":
        pytest.skip("the PostgreSQL variant covers this database")
    game = start_game("spades")
    assert race(game, racers(make_user, league, owner)) == [201] + [409] * (RACERS - 1)
    assert Hand.objects.filter(game=game).count() == 1

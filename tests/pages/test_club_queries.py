"""The club pages run a fixed number of queries, however many players, invitations or games there are."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import (
    game_start,
    invitation_create,
    player_claim,
    player_create,
    player_link,
)
from tests.conftest import join

pytestmark = pytest.mark.django_db


@pytest.fixture
def grow(league, owner, make_user):
    """``grow(n)``: n more players (half of them claimed), invitations, claims and games."""
    made = {"count": 0}

    def more(n: int) -> None:
        for _ in range(n):
            k = made["count"] = made["count"] + 1
            people = [player_create(name=f"P{k}-{seat}", by=owner, league=league) for seat in "NESW"]
            user = make_user(f"user{k}")
            join(league, user, "member", owner)
            if k % 2:
                player_link(league=league, player=people[0], user=user, by=owner)
            else:
                player_claim(league=league, player=people[0], by=user)
            invitation_create(league=league, role="scorekeeper", by=owner)
            game_start(game_type="spades", league=league, by=owner,
                       seats={seat: p.pk for seat, p in zip("NESW", people, strict=True)})

    return more


@pytest.mark.parametrize(("url_name", "queries"), [
    # Session, user, league, role; players; claims; (owner's) members; (the visitor's own) claims.
    ("league-players", 8),
    # Session, user, league, role; invitations; players (for the form).
    ("league-invitations", 6),
])
@pytest.mark.parametrize("size", [1, 6])
def test_the_organisers_pages(owner_client, league, grow, django_assert_max_num_queries, url_name, queries, size):
    grow(size)
    with django_assert_max_num_queries(queries):
        response = owner_client.get(reverse(url_name, args=[league.slug]))
    assert response.status_code == 200


@pytest.mark.parametrize("size", [1, 6])
def test_the_profile_page(signed_in, league, owner, grow, django_assert_max_num_queries, size):
    grow(size)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="user1")
    client = signed_in(user)
    # Session, user; players and their leagues; claims; invitations; leagues; games.
    with django_assert_max_num_queries(8):
        assert client.get(reverse("profile")).status_code == 200

"""What outsiders see: display names not login names, nothing of a private league or a private casual game, and
pages for signed-in visitors are private to caches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import game_set_public, game_start, league_create, player_create

pytestmark = pytest.mark.django_db


def test_a_public_leagues_page_shows_display_names_to_outsiders(client, signed_in, league, scorekeeper, stranger):
    for visitor in (client, signed_in(stranger)):
        page = visitor.get(reverse("league", args=[league.slug])).content.decode()
        assert "Owner D." in page and "Scorekeeper D." in page
        assert "(owner)" not in page and "(scorekeeper)" not in page
    assert "(scorekeeper)" in signed_in(scorekeeper).get(reverse("league", args=[league.slug])).content.decode()


@pytest.fixture
def back_room(owner):
    private = league_create(name="Back Room", by=owner, is_public=False)
    people = [player_create(name=name, by=owner, league=private) for name in ("Sol", "Tia", "Uma", "Vic")]
    game = game_start(game_type="spades", league=private, by=owner,
                      seats={seat: player.pk for seat, player in zip("NESW", people, strict=True)})
    return private, people, game


def test_nothing_of_a_private_league_reaches_an_outsider(client, signed_in, stranger, back_room):
    private, people, game = back_room
    for visitor in (client, signed_in(stranger)):
        for url in (reverse("league", args=[private.slug]), reverse("league-players", args=[private.slug]),
                    reverse("player", args=[people[0].pk]), reverse("table", args=[game.pk]),
                    reverse("live", args=[game.pk])):
            assert visitor.get(url).status_code == 404, url
        home = visitor.get(reverse("home")).content.decode()
        assert "Back Room" not in home and "Sol" not in home
    assert signed_in(stranger).get(reverse("new-game") + "?type=spades", follow=True).context["form"].players == {}


def test_a_private_league_page_is_private_to_caches(signed_in, owner, back_room, client, league):
    private, _, _ = back_room
    response = signed_in(owner).get(reverse("league", args=[private.slug]))
    assert response.status_code == 200 and "private" in response["Cache-Control"]
    client.logout()
    assert "private" not in client.get(reverse("league", args=[league.slug])).get("Cache-Control", "")


def test_a_casual_game_is_its_tables_until_shared(client, signed_in, creator, stranger, casual):
    url = reverse("table", args=[casual.pk])
    assert client.get(url).status_code == 404 and signed_in(stranger).get(url).status_code == 404
    creator_client = signed_in(creator)
    assert "Let anyone with the link follow it" in creator_client.get(url).content.decode()
    creator_client.post(reverse("game-sharing", args=[casual.pk]), {"public": "true"})
    client.logout()
    assert client.get(url).status_code == 200
    game_set_public(game=casual, public=False, by=creator)
    assert client.get(url).status_code == 404


def test_only_the_creator_shares_a_casual_game(signed_in, creator, helper, casual):
    casual.scorekeepers.add(helper)
    response = signed_in(helper).post(reverse("game-sharing", args=[casual.pk]), {"public": "true"})
    assert response.status_code == 403
    casual.refresh_from_db()
    assert not casual.is_public


def test_a_casual_match_is_its_tables_too(client, signed_in, client_for_api, creator, stranger, seats):
    from games.services import match_start

    match = match_start(game_type="trumps", seats=seats, by=creator)
    assert signed_in(creator).get(reverse("match", args=[match.pk])).status_code == 200
    client.logout()
    assert client.get(reverse("match", args=[match.pk])).status_code == 404
    api = client_for_api(stranger)
    assert api.get(f"/api/v1/matches/{match.pk}/").status_code == 404
    assert api.get("/api/v1/matches/").json()["count"] == 0
    game_set_public(game=match.games.get(), public=True, by=creator)
    assert client.get(reverse("match", args=[match.pk])).status_code == 200


@pytest.fixture
def client_for_api(db):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def make(user):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
        return api

    return make

"""One lookup of a game for every door (``selectors.game_for``): the pages and the API find and refuse alike."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.errors import NotAllowed, NotFound
from games.selectors import game_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_game(league, start_game):
    league.is_public = False
    league.save(update_fields=["is_public"])
    return start_game("spades", target=200)


def test_a_game_the_user_may_not_see_is_worded_as_one_that_does_not_exist(private_game, stranger):
    with pytest.raises(NotFound) as hidden:
        game_for(stranger, private_game.pk)
    with pytest.raises(NotFound) as missing:
        game_for(stranger, private_game.pk + 1000)
    assert hidden.value.message == f"there is no game {private_game.pk}"
    assert missing.value.message == f"there is no game {private_game.pk + 1000}"


@pytest.mark.parametrize("pk", [0, -1, 2**63, True, "1"])
def test_what_cannot_be_an_id_names_no_game(private_game, owner, pk):
    with pytest.raises(NotFound):
        game_for(owner, pk)


def test_a_member_sees_the_game_but_may_not_keep_its_score(private_game, member, scorekeeper):
    assert game_for(member, private_game.pk) == private_game
    with pytest.raises(NotAllowed):
        game_for(member, private_game.pk, need="score")
    assert game_for(scorekeeper, private_game.pk, need="score") == private_game


def test_the_page_and_the_api_refuse_the_same_people(private_game, owner, member, stranger):
    def page(user) -> int:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client.get(f"/games/{private_game.pk}/").status_code

    def api(user) -> int:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client.get(f"/api/v1/games/{private_game.pk}/").status_code

    assert [(page(user), api(user)) for user in (owner, member, stranger, None)] == [
        (200, 200), (200, 200), (404, 404), (404, 404)]

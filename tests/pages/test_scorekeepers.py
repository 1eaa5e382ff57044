"""A casual game's table page: its creator adds and removes scorekeepers by username."""

import pytest
from django.test import Client
from django.urls import reverse

from games import policy

pytestmark = pytest.mark.django_db





def post(client, game, username: str, action: str = "add"):
    return client.post(reverse("game-scorekeepers", args=[game.pk]), {"username": username, "action": action})


def test_the_creator_sees_the_form(signed_in, creator, casual):
    page = signed_in(creator).get(reverse("table", args=[casual.pk])).content.decode()
    assert 'id="add-scorekeeper"' in page and "No one else keeps score yet." in page


@pytest.mark.parametrize("actor", ["helper", "stranger", "owner"])
def test_others_see_no_form(request, signed_in, casual, actor):
    page = signed_in(request.getfixturevalue(actor)).get(reverse("table", args=[casual.pk])).content.decode()
    assert 'id="add-scorekeeper"' not in page


def test_the_creator_adds_then_removes_a_scorekeeper(signed_in, creator, helper, casual):
    client = signed_in(creator)
    response = post(client, casual, "helper")
    assert response.status_code == 302 and response["Location"].endswith("#scorekeepers")
    assert policy.can_score_game(helper, casual)
    page = client.get(reverse("table", args=[casual.pk])).content.decode()
    assert "helper can now keep score in this game." in page and 'aria-label="Remove helper"' in page
    assert post(client, casual, "helper", "remove").status_code == 302
    assert not policy.can_score_game(helper, casual)


def test_an_added_scorekeeper_gets_the_hand_form(signed_in, creator, helper, casual):
    post(signed_in(creator), casual, "helper")
    assert "Record hand 1" in signed_in(helper).get(reverse("table", args=[casual.pk])).content.decode()


def test_unknown_user_is_an_error_beside_the_username(signed_in, creator, casual):
    response = post(signed_in(creator), casual, "ghost")
    assert response.status_code == 400
    assert "There is no user called “ghost”" in response.context["scorekeeper_form"].errors["username"][0]
    assert 'value="ghost"' in response.content.decode()


@pytest.mark.parametrize("actor", ["helper", "stranger", "owner"])
def test_others_are_refused(request, signed_in, casual, helper, actor):
    # A casual game is its table's own: to others it is not there at all.
    response = post(signed_in(request.getfixturevalue(actor)), casual, "helper")
    assert response.status_code == 404
    assert not policy.can_score_game(helper, casual)


@pytest.mark.parametrize("actor", ["helper", "stranger", "owner"])
def test_others_are_refused_a_public_casual_game(request, signed_in, creator, casual, helper, actor):
    from games.services import game_set_public

    game_set_public(game=casual, public=True, by=creator)
    response = post(signed_in(request.getfixturevalue(actor)), casual, "helper")
    assert response.status_code == 403
    assert not policy.can_score_game(helper, casual)


def test_anonymous_is_sent_to_sign_in(client, casual, helper):
    response = post(client, casual, "helper")
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not casual.scorekeepers.exists()


def test_a_league_game_has_no_scorekeepers_form_and_refuses_posts(owner_client, start_game, helper):
    game = start_game("spades")
    assert 'id="add-scorekeeper"' not in owner_client.get(reverse("table", args=[game.pk])).content.decode()
    assert post(owner_client, game, "helper").status_code == 403
    assert not game.scorekeepers.exists()


def test_the_form_needs_the_csrf_token(creator, helper, casual):
    client = Client(enforce_csrf_checks=True)
    client.force_login(creator)
    assert post(client, casual, "helper").status_code == 403
    assert not casual.scorekeepers.exists()
    page = client.get(reverse("table", args=[casual.pk])).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    response = client.post(reverse("game-scorekeepers", args=[casual.pk]),
                           {"username": "helper", "action": "add", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and casual.scorekeepers.filter(username="helper").exists()


@pytest.mark.parametrize("keepers", [0, 5])
def test_table_page_queries_do_not_grow_with_scorekeepers(signed_in, creator, casual, make_user, keepers,
                                                          django_assert_max_num_queries):
    for n in range(keepers):
        casual.scorekeepers.add(make_user(f"keeper{n}"))
    client = signed_in(creator)
    # As for any table page, plus the list of scorekeepers.
    with django_assert_max_num_queries(8):
        page = client.get(reverse("table", args=[casual.pk])).content.decode()
    assert page.count('aria-label="Remove keeper') == keepers

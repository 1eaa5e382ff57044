"""The spectator view and the fragment it polls."""

import pytest
from django.urls import reverse

from games.services import game_start, hand_record, league_create
from tests.conftest import table_in

pytestmark = pytest.mark.django_db

HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}


def test_live_page_polls_its_board(client, start_game):
    game = start_game("thieving_stink")
    page = client.get(reverse("live", args=[game.pk])).content.decode()
    assert f'data-live-url="{reverse("live-board", args=[game.pk])}"' in page
    assert 'http-equiv="refresh"' in page  # without JavaScript the page reloads itself


def test_board_fragment_changes_after_a_hand_and_answers_304_when_unchanged(client, start_game, owner):
    game = start_game("thieving_stink")
    url = reverse("live-board", args=[game.pk])
    first = client.get(url)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    hand_record(game=game, record=HAND, by=owner)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and 'data-total="EW">105<' in second.content.decode()
    assert "Hand 1:" in second.content.decode()


def test_private_game_live_is_404_for_strangers(signed_in, stranger, owner):
    private = league_create(name="Hidden", by=owner, is_public=False)
    game = game_start(game_type="spades", seats=table_in(private, owner), by=owner, league=private)
    client = signed_in(stranger)
    assert client.get(reverse("live", args=[game.pk])).status_code == 404
    assert client.get(reverse("live-board", args=[game.pk])).status_code == 404


@pytest.mark.parametrize("hands", [1, 15])
def test_live_queries_are_fixed(client, start_game, owner, hands, django_assert_max_num_queries):
    game = start_game("thieving_stink", target=100_000)
    for _ in range(hands):
        hand_record(game=game, record=HAND, by=owner)
    with django_assert_max_num_queries(3):
        assert client.get(reverse("live", args=[game.pk])).status_code == 200
    with django_assert_max_num_queries(3):
        assert client.get(reverse("live-board", args=[game.pk])).status_code == 200


def test_the_table_page_watches_the_boards_version_for_another_phones_hands(owner_client, start_game, owner):
    game = start_game("thieving_stink")
    facts = owner_client.get(reverse("table", args=[game.pk])).context["table_facts"]
    assert facts["board"] == reverse("live-board", args=[game.pk])
    assert owner_client.get(facts["board"], HTTP_IF_NONE_MATCH=facts["version"]).status_code == 304
    hand_record(game=game, record=HAND, by=owner)  # another phone
    assert owner_client.get(facts["board"], HTTP_IF_NONE_MATCH=facts["version"]).status_code == 200


def test_a_board_is_rendered_once_per_version_for_every_watcher(client, start_game, owner,
                                                               django_assert_num_queries):
    game = start_game("thieving_stink", target=100_000)
    hand_record(game=game, record=HAND, by=owner)
    url = reverse("live-board", args=[game.pk])
    first = client.get(url)
    # Another watcher of the same version: the query that finds the version, and the stored fragment.
    with django_assert_num_queries(1):
        again = client.get(url)
    assert again.status_code == 200 and again.content == first.content and again["ETag"] == first["ETag"]
    hand_record(game=game, record=HAND, by=owner)
    newer = client.get(url)
    assert newer["ETag"] != first["ETag"] and "Hand 2:" in newer.content.decode()

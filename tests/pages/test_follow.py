"""The player's (or follower's) view: the game from the viewer's seat, a seat a code's holder chooses, and an
answer cheap to ask again and again (a 304 while nothing changed)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import game_start, hand_correct, hand_record, hand_undo

pytestmark = pytest.mark.django_db

HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}
OTHER_HAND = {"face_cards": {"NS": 10, "EW": 3}, "trump_stack": {"holder": "N", "size": 5}}


@pytest.fixture
def casual_stink(creator, seats):
    """A casual game, seen only by its table: the code is the way in."""
    return game_start(game_type="thieving_stink", seats=seats, by=creator, options={"target": 100_000})


@pytest.fixture
def holder(client, casual_stink):
    casual_stink.refresh_from_db()
    client.get(reverse("join", args=[casual_stink.pk, casual_stink.table_token]))
    return client


def test_a_code_holder_chooses_a_seat_and_sees_the_game_from_that_side(holder, casual_stink):
    url = reverse("follow", args=[casual_stink.pk])
    assert holder.post(url, {"seat": "S"}).status_code == 302
    page = holder.get(url).content.decode()
    assert "You sit <b>South</b> (Cat): your side is <b>NS</b>." in page
    assert 'class="side yours" data-side="NS"' in page
    holder.post(url, {"seat": ""})
    assert "You sit" not in holder.get(url).content.decode()


def test_a_seat_that_is_not_one_is_refused_and_changes_nothing(holder, casual_stink):
    url = reverse("follow", args=[casual_stink.pk])
    holder.post(url, {"seat": "S"})
    refused = holder.post(url, {"seat": "NORTH"})
    assert refused.status_code == 400 and "Choose North, East, South or West" in refused.content.decode()
    assert "You sit <b>South</b>" in holder.get(url).content.decode()


def test_a_seat_comes_from_the_account_for_a_linked_player(signed_in, owner, member, league, players, start_game):
    from games.services import player_link

    game = start_game("thieving_stink")
    player_link(league=league, player=players[0], user=member, by=owner)
    client = signed_in(member)
    url = reverse("follow", args=[game.pk])
    assert "You sit <b>North</b> (Ann)" in client.get(url).content.decode()
    assert client.post(url, {"seat": "E"}).status_code == 403


def test_someone_who_may_see_the_game_follows_it_without_a_code(client, start_game):
    game = start_game("thieving_stink")
    page = client.get(reverse("follow", args=[game.pk])).content.decode()
    assert "Hands" in page and "Where do you sit?" not in page  # nothing to choose without the code
    assert client.post(reverse("follow", args=[game.pk]), {"seat": "N"}).status_code == 403


def test_the_view_works_without_javascript(holder, casual_stink):
    page = holder.get(reverse("follow", args=[casual_stink.pk])).content.decode()
    assert '<noscript><meta http-equiv="refresh"' in page and ">Refresh</a>" in page


def test_the_view_answers_304_until_a_hand_is_recorded_corrected_or_undone(holder, creator, casual_stink):
    url = reverse("follow", args=[casual_stink.pk])
    first = holder.get(url)
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    version = first["ETag"]
    assert holder.get(url, HTTP_IF_NONE_MATCH=version).status_code == 304
    for change in (lambda: hand_record(game=casual_stink, record=HAND, by=creator),
                   lambda: hand_correct(game=casual_stink, number=1, record=OTHER_HAND, by=creator),
                   lambda: hand_undo(game=casual_stink, by=creator)):
        change()
        answer = holder.get(url, HTTP_IF_NONE_MATCH=version)
        assert answer.status_code == 200 and answer["ETag"] != version
        version = answer["ETag"]
    assert "undone" in answer.content.decode()


def test_a_seat_chosen_is_a_different_answer(holder, casual_stink):
    url = reverse("follow", args=[casual_stink.pk])
    version = holder.get(url)["ETag"]
    holder.post(url, {"seat": "W"})
    assert holder.get(url, HTTP_IF_NONE_MATCH=version).status_code == 200


@pytest.mark.parametrize("hands", [1, 12])
def test_asking_costs_a_fixed_number_of_queries(holder, creator, casual_stink, hands, django_assert_max_num_queries):
    for _ in range(hands):
        hand_record(game=casual_stink, record=HAND, by=creator)
    url = reverse("follow", args=[casual_stink.pk])
    with django_assert_max_num_queries(4):
        version = holder.get(url)["ETag"]
    with django_assert_max_num_queries(1):
        assert holder.get(url, HTTP_IF_NONE_MATCH=version).status_code == 304


def test_a_code_holder_sees_no_link_beyond_the_game(client, owner, start_game):
    game = start_game("thieving_stink")  # a public league: its page is anyone's anyway
    page = client.get(reverse("follow", args=[game.pk])).content.decode()
    assert reverse("league", args=[game.league.slug]) in page

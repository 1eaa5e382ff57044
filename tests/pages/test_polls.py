"""The question every page showing a game asks every couple of seconds, "has it changed?": while nothing has,
its answer is a 304 that costs one statement (the version and the viewer's right to see it) beside the session's
user, whoever asks and however they get in; and whoever has lost the right to see the game (a renewed code, a
session ended, a league made private, a membership ended) is refused at the next poll, never told "unchanged"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import (
    game_start,
    hand_record,
    league_create,
    league_set_member,
    league_update,
    night_check_in,
    night_round_start,
    night_start,
    player_create,
    player_link,
    table_token_renew,
)
from tests.conftest import join

pytestmark = pytest.mark.django_db

HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}
# In production the sessions are read from Redis (``cached_db``): a signed-in poll's statements are the user's row
# and the game's version. The tests' cache is the process's own, which serves one process as Redis serves many.
CACHED_SESSIONS = "scorekeeper.sessions"


@pytest.fixture(autouse=True)
def cached_sessions(settings):
    settings.SESSION_ENGINE = CACHED_SESSIONS


@pytest.fixture
def back_room(owner, member):
    """A private league (with ``member`` in it), its four players, a game of theirs, the player at North linked
    to ``member``."""
    private = league_create(name="Back Room", by=owner, is_public=False)
    join(private, member, "member", owner)
    people = [player_create(name=name, by=owner, league=private) for name in ("Sol", "Tia", "Uma", "Vic")]
    player_link(league=private, player=people[0], user=member, by=owner)
    game = game_start(game_type="thieving_stink", league=private, by=owner, options={"target": 100_000},
                      seats={seat: player.pk for seat, player in zip("NESW", people, strict=True)})
    return private, game


def signed_in(user) -> Client:
    phone = Client()
    phone.force_login(user)
    return phone


def with_code(game: Game) -> Client:
    """A phone without an account that scanned the table's code."""
    game.refresh_from_db()
    phone = Client()
    assert phone.get(reverse("join", args=[game.pk, game.table_token])).status_code == 302
    return phone


def night_of(league, owner):
    night = night_start(league=league, by=owner, game_type="spades", round_end="hands", hands=2, name="Members only")
    for name in ("Ann", "Ben", "Cid", "Dee"):
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=league))
    night_round_start(night=night, by=owner)
    return night


def unchanged(phone: Client, url: str, statements: int, assert_num_queries) -> None:
    """The page's first answer, then the same question with its ETag: a 304 in ``statements`` statements."""
    first = phone.get(url)
    assert first.status_code == 200
    with assert_num_queries(statements):
        again = phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_signed_in_phones_304_costs_the_user_and_one_statement(back_room, member, page, django_assert_num_queries):
    _, game = back_room
    unchanged(signed_in(member), reverse(page, args=[game.pk]), 2, django_assert_num_queries)


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_code_holders_304_costs_one_statement(back_room, page, django_assert_num_queries):
    _, game = back_room
    unchanged(with_code(game), reverse(page, args=[game.pk]), 1, django_assert_num_queries)


def test_the_scorekeepers_304_costs_the_user_and_one_statement(back_room, owner, django_assert_num_queries):
    _, game = back_room
    unchanged(signed_in(owner), reverse("live-board", args=[game.pk]), 2, django_assert_num_queries)


def test_the_room_boards_304_costs_the_user_and_one_statement(back_room, owner, django_assert_num_queries):
    private, _ = back_room
    night = night_of(private, owner)
    unchanged(signed_in(owner), reverse("night-board-live", args=[night.pk]), 2, django_assert_num_queries)


def test_a_public_boards_304_for_anyone_costs_one_statement(client, start_game, django_assert_num_queries):
    game = start_game("thieving_stink", target=100_000)
    unchanged(client, reverse("live-board", args=[game.pk]), 1, django_assert_num_queries)


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_hand_is_a_new_answer_with_its_own_etag(back_room, owner, member, page):
    _, game = back_room
    phone = signed_in(member)
    url = reverse(page, args=[game.pk])
    first = phone.get(url)
    hand_record(game=game, record=HAND, by=owner)
    newer = phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert newer.status_code == 200 and newer["ETag"] != first["ETag"]
    assert phone.get(url, HTTP_IF_NONE_MATCH=newer["ETag"]).status_code == 304


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_renewed_code_is_refused_at_the_next_poll(back_room, owner, page):
    _, game = back_room
    phone = with_code(game)
    url = reverse(page, args=[game.pk])
    etag = phone.get(url)["ETag"]
    table_token_renew(game=game, by=owner)
    refused = phone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert refused.status_code == 403 and "no longer opens the game" in refused.content.decode()


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_session_ended_is_refused_at_the_next_poll(back_room, member, page):
    _, game = back_room
    phone = signed_in(member)
    url = reverse(page, args=[game.pk])
    etag = phone.get(url)["ETag"]
    session = phone.cookies["sessionid"].value
    assert phone.post(reverse("logout")).status_code == 302
    phone.cookies["sessionid"] = session  # the phone asks again with the session it had
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_password_changed_elsewhere_ends_the_sessions_polls(back_room, member):
    _, game = back_room
    phone = signed_in(member)
    url = reverse("follow", args=[game.pk])
    etag = phone.get(url)["ETag"]
    member.set_password("a-new-password-for-sure")
    member.save()
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_league_made_private_is_refused_to_outsiders_at_the_next_poll(client, owner, start_game, league, page):
    game = start_game("thieving_stink", target=100_000)
    url = reverse(page, args=[game.pk])
    etag = client.get(url)["ETag"]
    league_update(league=league, by=owner, is_public=False)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


@pytest.mark.parametrize("page", ["live-board", "follow"])
def test_a_member_removed_is_refused_at_the_next_poll(back_room, owner, make_user, page):
    private, game = back_room
    leaving = make_user("leaving")
    join(private, leaving, "member", owner)
    phone = signed_in(leaving)
    url = reverse(page, args=[game.pk])
    etag = phone.get(url)["ETag"]
    league_set_member(league=private, user=leaving, role=None, by=owner)
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_the_room_board_is_refused_to_a_member_removed_and_when_the_league_goes_private(back_room, owner, make_user,
                                                                                        client, league):
    private, _ = back_room
    leaving = make_user("leaving")
    join(private, leaving, "member", owner)
    phone = signed_in(leaving)
    url = reverse("night-board-live", args=[night_of(private, owner).pk])
    etag = phone.get(url)["ETag"]
    league_set_member(league=private, user=leaving, role=None, by=owner)
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    public_night = reverse("night-board-live", args=[night_of(league, owner).pk])
    etag = client.get(public_night)["ETag"]
    league_update(league=league, by=owner, is_public=False)
    assert client.get(public_night, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_casual_games_scorekeeper_polls_it_and_a_stranger_is_refused(creator, helper, stranger, seats):
    game = game_start(game_type="thieving_stink", seats=seats, by=creator, options={"target": 100_000})
    game.scorekeepers.add(helper)
    url = reverse("live-board", args=[game.pk])
    phone = signed_in(helper)
    etag = phone.get(url)["ETag"]
    assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert signed_in(stranger).get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_signed_in_pages_work_while_the_sessions_cache_cannot_be_reached(settings, back_room, member, caplog):
    _, game = back_room
    settings.CACHES = {"default": {"BACKEND": "scorekeeper.redis_cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    phone = Client()
    phone.force_login(member)  # the session's key checked, and the session kept, in the database alone
    url = reverse("follow", args=[game.pk])
    first = phone.get(url)
    assert first.status_code == 200
    assert phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    session = phone.cookies["sessionid"].value
    assert phone.post(reverse("logout")).status_code == 302
    phone.cookies["sessionid"] = session  # signed out: the database no longer has the session it names
    assert phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404
    assert "the cache cannot be reached" in caplog.text

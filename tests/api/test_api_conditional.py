"""ETag and If-None-Match: an unchanged game or league standings is a 304, strong or weak tag alike."""

from __future__ import annotations

import pytest

from games.services import hand_record, league_update, player_update
from games.standings.services import league_standings_recompute
from tests.api.conftest import SPADES_HAND

pytestmark = pytest.mark.django_db


def game_url(game) -> str:
    return f"/api/v1/games/{game.pk}/"


def test_an_unchanged_game_is_a_304_without_a_body(anonymous, spades):
    first = anonymous.get(game_url(spades))
    assert first.status_code == 200 and first["ETag"].startswith('"')
    again = anonymous.get(game_url(spades), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]


def test_a_weak_tag_from_a_proxy_matches_too(anonymous, spades):
    tag = anonymous.get(game_url(spades))["ETag"]
    assert anonymous.get(game_url(spades), HTTP_IF_NONE_MATCH=f"W/{tag}").status_code == 304
    assert anonymous.get(game_url(spades), HTTP_IF_NONE_MATCH=f'"other", W/{tag}').status_code == 304


def test_a_new_hand_or_a_renamed_player_changes_the_tag(anonymous, spades, owner, players):
    tag = anonymous.get(game_url(spades))["ETag"]
    hand_record(game=spades, record=SPADES_HAND, by=owner)
    after_hand = anonymous.get(game_url(spades), HTTP_IF_NONE_MATCH=tag)
    assert after_hand.status_code == 200 and after_hand.json()["hand_count"] == 1
    player_update(player=players[0], name="Annie", by=owner)
    renamed = anonymous.get(game_url(spades), HTTP_IF_NONE_MATCH=after_hand["ETag"])
    assert renamed.status_code == 200 and renamed.json()["seats"]["N"]["name"] == "Annie"


def test_a_304_takes_two_queries(client_for, member, private_league, spades, django_assert_max_num_queries):
    client = client_for(member)
    tag = client.get(game_url(spades))["ETag"]
    # The token; the game with its version; the member's role in the private league.
    with django_assert_max_num_queries(3):
        assert client.get(game_url(spades), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_game_you_may_not_see_is_a_404_whatever_the_tag(client_for, owner, stranger, private_league, spades):
    tag = client_for(owner).get(game_url(spades))["ETag"]
    response = client_for(stranger).get(game_url(spades), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 404 and "ETag" not in response


# --- standings ---------------------------------------------------------------------------------------


@pytest.fixture
def counted(league, spades, owner):
    spades.refresh_from_db()
    for _ in range(3):
        hand_record(game=spades, record=SPADES_HAND, by=owner)  # NS reach 200 on the third hand
    league_standings_recompute(league_id=league.pk)
    return league


def standings_url(league, query: str = "") -> str:
    return f"/api/v1/leagues/{league.pk}/standings/{query}"


def test_unchanged_standings_are_a_304(anonymous, counted):
    first = anonymous.get(standings_url(counted))
    assert first.status_code == 200 and first.json()["game_types"]
    assert anonymous.get(standings_url(counted), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert anonymous.get(standings_url(counted), HTTP_IF_NONE_MATCH=f"W/{first['ETag']}").status_code == 304


def test_each_page_has_its_own_tag(anonymous, counted):
    first = anonymous.get(standings_url(counted))["ETag"]
    other = anonymous.get(standings_url(counted, "?page_size=1"), HTTP_IF_NONE_MATCH=first)
    assert other.status_code == 200 and other["ETag"] != first


def test_standings_written_again_or_a_renamed_league_change_the_tag(anonymous, counted, owner):
    tag = anonymous.get(standings_url(counted))["ETag"]
    league_standings_recompute(league_id=counted.pk)
    recomputed = anonymous.get(standings_url(counted), HTTP_IF_NONE_MATCH=tag)
    assert recomputed.status_code == 200
    league_update(league=counted, by=owner, name="Friday Club")
    renamed = anonymous.get(standings_url(counted), HTTP_IF_NONE_MATCH=recomputed["ETag"])
    assert renamed.status_code == 200 and renamed.json()["league"]["name"] == "Friday Club"


def test_a_304_for_standings_takes_one_query(anonymous, counted, django_assert_max_num_queries):
    tag = anonymous.get(standings_url(counted))["ETag"]
    with django_assert_max_num_queries(1):  # the league with its version (no token to look up)
        assert anonymous.get(standings_url(counted), HTTP_IF_NONE_MATCH=tag).status_code == 304

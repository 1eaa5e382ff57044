"""An integrator follows a league: games and hands changed after a moment, in cursor pages."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game, Hand
from games.services import hand_correct, hand_record

from .conftest import SPADES_HAND


def walk(client, url: str) -> list[dict]:
    """Every result, following ``next`` to the end."""
    results = []
    while url:
        body = client.get(url).json()
        assert body.get("previous", "missing") is None, body
        results += body["results"]
        url = body["next"]
    return results


def at(game_or_hand, moment) -> None:
    type(game_or_hand).objects.filter(pk=game_or_hand.pk).update(updated_at=moment)


def test_games_changed_after_a_moment_oldest_first_in_cursor_pages(as_owner, start_game, league):
    now = timezone.now()
    games = [start_game("spades") for _ in range(5)]
    for n, game in enumerate(games):
        at(game, now - timedelta(minutes=10 - n))
    at(games[0], now - timedelta(minutes=1))  # the oldest game changed last

    since = (now - timedelta(minutes=8, seconds=30)).isoformat()
    seen = walk(as_owner, f"/api/v1/games/?league={league.pk}&page_size=2&updated_after={since.replace('+', '%2B')}")

    assert [game["id"] for game in seen] == [games[2].pk, games[3].pk, games[4].pk, games[0].pk]


def test_a_page_boundary_inside_a_tie_loses_nothing(as_owner, start_game, league):
    moment = timezone.now() - timedelta(minutes=5)
    games = [start_game("spades") for _ in range(4)]
    Game.objects.filter(pk__in=[game.pk for game in games]).update(updated_at=moment)
    seen = walk(as_owner, f"/api/v1/games/?league={league.pk}&page_size=1&updated_after=2000-01-01T00:00:00Z")
    assert [game["id"] for game in seen] == sorted(game.pk for game in games)


def test_finished_after_lists_results_in_the_order_they_finished(as_owner, owner, start_game, league):
    first, second, unfinished = start_game("spades", target=100), start_game("spades", target=100), start_game("spades")
    for game in (second, first):
        hand_record(game=game, record=SPADES_HAND, by=owner)
        hand_record(game=game, record=SPADES_HAND, by=owner)
    body = as_owner.get(f"/api/v1/games/?finished_after=2000-01-01T00:00:00Z&league={league.pk}").json()
    assert [game["id"] for game in body["results"]] == [second.pk, first.pk]
    assert body["count"] == 2 and unfinished.pk not in [game["id"] for game in body["results"]]


def test_a_utc_offset_whose_plus_arrived_as_a_space_is_read(as_owner, start_game, league):
    start_game("spades")
    response = as_owner.get(f"/api/v1/games/?league={league.pk}&updated_after=2000-01-01T00:00:00 00:00")
    assert response.status_code == 200 and response.json()["count"] == 1


def test_every_hand_of_the_league_changed_since(as_owner, owner, start_game, league):
    game, other = start_game("spades"), start_game("spades")
    for _ in range(3):
        hand_record(game=game, record=SPADES_HAND, by=owner)
    hand_record(game=other, record=SPADES_HAND, by=owner)
    long_ago = timezone.now() - timedelta(hours=1)
    Hand.objects.update(updated_at=long_ago)
    since = (long_ago + timedelta(minutes=1)).isoformat().replace("+", "%2B")
    hand_correct(game=game, number=2, record={**SPADES_HAND, "tricks": {"N": 4, "E": 2, "S": 4, "W": 3}}, by=owner)
    hand_record(game=other, record=SPADES_HAND, by=owner)

    seen = walk(as_owner, f"/api/v1/hands/?league={league.pk}&updated_after={since}&page_size=1")

    # Correcting hand 2 re-scored hand 3 too (its totals changed): both are listed.
    assert [(hand["game"], hand["number"]) for hand in seen] == [(game.pk, 2), (game.pk, 3), (other.pk, 2)]
    assert seen[0]["record"]["tricks"]["E"] == 2 and seen[0]["entered_by"] == "Owner D."


def test_outsiders_follow_nothing_of_a_private_league(client_for, stranger, owner, private_league, start_game):
    game = start_game("spades")
    hand_record(game=game, record=SPADES_HAND, by=owner)
    client = client_for(stranger)
    assert client.get("/api/v1/hands/?updated_after=2000-01-01T00:00:00Z").json()["count"] == 0
    assert client.get("/api/v1/games/?updated_after=2000-01-01T00:00:00Z").json()["count"] == 0


def test_bad_moments_and_cursors_are_400s(as_owner):
    bad_moment = as_owner.get("/api/v1/games/?updated_after=yesterday")
    assert bad_moment.status_code == 400 and "updated_after" in bad_moment.json()
    bad_cursor = as_owner.get("/api/v1/hands/?cursor=not-a-cursor")
    assert bad_cursor.status_code == 400 and bad_cursor.json()["cursor"][0].startswith("this is not a cursor")
    too_big = as_owner.get("/api/v1/hands/?page_size=1000")
    assert too_big.status_code == 400 and too_big.json()["page_size"] == ["a page has 1 to 100 rows"]


def test_without_sync_parameters_the_list_is_as_before(as_owner, start_game, league):
    games = [start_game("spades") for _ in range(3)]
    body = as_owner.get(f"/api/v1/games/?league={league.pk}&page_size=2").json()
    assert body["count"] == 3 and "page=2" in body["next"]
    assert [game["id"] for game in body["results"]] == [games[2].pk, games[1].pk]


def test_a_page_of_the_feed_is_a_fixed_number_of_queries(as_owner, owner, start_game, league,
                                                         django_assert_max_num_queries):
    for _ in range(3):
        game = start_game("spades")
        for _ in range(4):
            hand_record(game=game, record=SPADES_HAND, by=owner)
    with django_assert_max_num_queries(6):
        as_owner.get(f"/api/v1/hands/?league={league.pk}&updated_after=2000-01-01T00:00:00Z")
    with django_assert_max_num_queries(6):
        as_owner.get(f"/api/v1/games/?league={league.pk}&updated_after=2000-01-01T00:00:00Z")


def test_a_cursor_page_is_not_numbered(as_owner, league):
    response = as_owner.get(f"/api/v1/hands/?league={league.pk}&page=2")
    assert response.status_code == 400
    assert response.json()["page"] == ["cursor pages are not numbered: follow `next`"]
    schema = as_owner.get("/api/v1/schema/?format=json").json()
    names = [parameter["name"] for parameter in schema["paths"]["/api/v1/hands/"]["get"]["parameters"]]
    assert "page_size" in names and "page" not in names

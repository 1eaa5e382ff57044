"""The admin: usable lists for organisers, derived fields read-only, corrections through the service."""

from __future__ import annotations

import pytest

from games.models import Game, Hand, HandRevision
from games.services import hand_record

HAND = {"face_cards": {"NS": 8, "EW": 8}, "trump_stack": {"holder": "N", "size": 4}}


@pytest.fixture
def game(start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=HAND, by=owner)
    return game


@pytest.mark.parametrize("model", ["player", "league", "game", "hand", "handrevision", "match"])
def test_every_list_page_opens(admin_client, game, model):
    assert admin_client.get(f"/admin/games/{model}/").status_code == 200


def test_the_game_page_shows_its_hands_and_searches_by_player(admin_client, game):
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200 and b"hands-TOTAL_FORMS" in page.content
    found = admin_client.get("/admin/games/game/", {"q": "Ann"})
    assert str(game) in found.content.decode()


def test_a_correction_in_the_admin_goes_through_the_service(admin_client, admin_user, game):
    hand = Hand.objects.get(game=game, number=1)
    corrected = {"face_cards": {"NS": 12, "EW": 4}, "trump_stack": {"holder": "N", "size": 4}}
    import json

    response = admin_client.post(f"/admin/games/hand/{hand.pk}/change/",
                                 {"record": json.dumps(corrected), "reason": "wrong count"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.totals == {"NS": 140 + 100, "EW": 40 + 80}
    revision = HandRevision.objects.get(game=game)
    assert (revision.changed_by, revision.reason) == (admin_user, "wrong count")


def test_a_refused_correction_in_the_admin_shows_why_and_changes_nothing(admin_client, game):
    hand = Hand.objects.get(game=game, number=1)
    response = admin_client.post(f"/admin/games/hand/{hand.pk}/change/",
                                 {"record": '{"face_cards": {"NS": 12, "EW": 12}, '
                                            '"trump_stack": {"holder": "N", "size": 4}}'})
    assert response.status_code == 200
    assert "face cards add up to 24" in response.content.decode()
    hand.refresh_from_db()
    assert hand.record == HAND and not HandRevision.objects.exists()


def test_games_cannot_be_added_or_hands_deleted_by_hand(admin_client, game):
    assert admin_client.get("/admin/games/game/add/").status_code == 403
    hand = Hand.objects.get(game=game, number=1)
    assert admin_client.get(f"/admin/games/hand/{hand.pk}/delete/").status_code == 403


def test_the_verify_action_reports_each_game(admin_client, game):
    response = admin_client.post("/admin/games/game/", {"action": "verify_games", "_selected_action": [game.pk]},
                                 follow=True)
    assert "matches its hands" in response.content.decode()


def test_the_abandon_action_uses_the_service(admin_client, game):
    admin_client.post("/admin/games/game/", {"action": "abandon_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED

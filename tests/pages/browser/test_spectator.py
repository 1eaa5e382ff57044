"""The spectator view updates by itself when a hand is recorded elsewhere."""

import pytest
from playwright.sync_api import expect

from games.services import hand_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}


def test_spectator_page_follows_the_game(desktop, start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record=HAND, by=owner)
    desktop.goto(f"/games/{game.pk}/live/")
    expect(desktop.locator('[data-total="EW"]')).to_have_text("105")
    hand_record(game=game, record=HAND, by=owner)
    expect(desktop.locator('[data-total="EW"]')).to_have_text("210", timeout=15_000)
    expect(desktop.locator(".last-hand")).to_contain_text("Hand 2")

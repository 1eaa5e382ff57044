"""A confirmation made on the scorekeeper's phone handed across the table while the Wi-Fi is down (390×844, the
phone's connection cut at the relay as bad Wi-Fi does): it is kept on the phone, survives leaving the page, and
arrives exactly once when the connection is back, even when the first answer is lost on the way; the table page
then shows the hand confirmed."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Game, HandCheck, Player
from games.services import game_start, hand_record, league_update

from .network import ANSWERS_LOST, UP
from .test_table_offline import go_offline, open_table, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


@pytest.fixture
def game(league, owner, seats):
    """A Spades game whose hands the other side confirms; Ann (North) keeps score, and hand 1 waits for EW."""
    league_update(league=league, by=owner, confirmation="opponents")
    Player.objects.filter(pk=seats["N"]).update(user=owner)
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})
    hand_record(game=game, record=HAND, by=owner)
    return game


def test_a_confirmation_made_offline_arrives_once_when_the_phone_is_back(table_phone, wifi, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)  # the table page is kept on the phone from now on
    expect(page.locator("#hand-1 [data-check]")).to_have_text("waiting for EW")
    page.locator("#hand-1").get_by_role("link", name="Hand the phone to EW (Ben or Dan) for hand 1").click()
    expect(page.get_by_text("Hand this phone to EW (Ben or Dan) for hand 1")).to_be_visible()

    go_offline(page, wifi)
    page.get_by_role("button", name="I'm Ben (East): confirm").click()
    expect(page.locator("[data-confirm-status]")).to_have_text(
        "Hand 1: East (Ben)'s confirmation is kept on this phone and sent when it is back online.")
    time.sleep(1)
    assert not HandCheck.objects.exists()

    # Back to the table, still offline: the page from the phone's copy; the confirmation is still on the phone.
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#connection")).to_contain_text("Offline")
    assert page.evaluate("""() => new Promise((resolve) => {
      const opened = indexedDB.open("scorekeeper");
      opened.onsuccess = () => {
        const read = opened.result.transaction("outbox").objectStore("outbox").getAll();
        read.onsuccess = () => resolve(read.result.filter((entry) => entry.kind === "check").length);
      };
    })""") == 1

    # The connection comes back, but the first answer is lost on the way: the server has it, the phone not.
    wifi.set(ANSWERS_LOST)
    page.context.set_offline(False)
    deadline = time.monotonic() + 20
    while not HandCheck.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert wifi.answers_dropped and HandCheck.objects.count() == 1
    wifi.set(UP)

    expect(page.locator("#hand-1 [data-check]")).to_have_text("confirmed by East (Ben)", timeout=30_000)
    time.sleep(2)
    check = HandCheck.objects.get()
    assert (check.action, check.seat, check.via) == ("confirmed", "E", "handed")
    assert Game.objects.get(pk=game.pk).unconfirmed == 0

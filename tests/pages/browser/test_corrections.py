"""Correcting and undoing hands, and a double-tapped submit, at the table on a phone."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Hand
from games.services import hand_record

from .conftest import pick, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}
TRUMPS = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}


def test_correct_a_hand_then_undo_the_last_in_two_taps_each(phone, start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=HAND, by=owner)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator('[data-total="NS"]')).to_have_text("140")
    # From the hand's card: Correct, then the choices that were wrong, then Save (always on the screen).
    phone.locator("#hand-1").get_by_role("link", name="Correct hand 1").click()
    expect(phone.locator("#id_tricks_N_group").get_by_label("4", exact=True)).to_be_checked()
    pick(phone, "tricks_N", "5")
    pick(phone, "tricks_W", "1")
    save = phone.get_by_role("button", name="Save the correction")
    expect(save).to_be_in_viewport(ratio=1)
    save.click()
    phone.get_by_text("Hand 1 corrected.").wait_for()
    expect(phone.locator('[data-total="NS"]')).to_have_text("141")
    expect(phone.locator('[data-total="EW"]')).to_have_text("0")
    # The latest change of the hand is shown as it is, not folded away.
    change = phone.locator("#hand-1 .trail .change-head")
    expect(change).to_be_visible()
    expect(change).to_contain_text("Corrected by Owner D.")
    expect(phone.locator("#hand-1 .trail ins")).to_be_visible()

    phone.locator("#hand-2").get_by_role("link", name="Undo hand 2").click()
    phone.get_by_role("button", name="Yes, undo hand 2").click()
    phone.get_by_text("Hand 2 undone.").wait_for()
    expect(phone.locator('[data-total="NS"]')).to_have_text("71")
    expect(phone.locator('[data-total="EW"]')).to_have_text("-60")
    expect(phone.locator("#undone-2 .trail .change-head")).to_contain_text("Undone by Owner D.")
    assert Hand.objects.filter(game=game).count() == 1


def test_a_reason_can_still_be_given_and_earlier_changes_fold(phone, start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=HAND, by=owner)
    sign_in(phone, "owner")
    for took_n, took_w, reason in ((5, 1, "W's last trick was N's"), (4, 2, "it was W's after all")):
        phone.goto(f"/games/{game.pk}/hands/1/correct/")
        pick(phone, "tricks_N", str(took_n))
        pick(phone, "tricks_W", str(took_w))
        phone.get_by_label("Reason (optional)").fill(reason)
        phone.get_by_role("button", name="Save the correction").click()
        phone.get_by_text("Hand 1 corrected.").wait_for()
    trail = phone.locator("#hand-1 .trail")
    expect(trail.locator(".change-head").first).to_contain_text("“it was W's after all”")
    earlier = trail.locator("details")
    expect(earlier.locator("summary")).to_have_text("1 earlier change")
    expect(earlier.get_by_text("“W's last trick was N's”")).to_be_hidden()
    earlier.locator("summary").click()
    expect(earlier.get_by_text("“W's last trick was N's”")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False])
def test_double_tapped_submit_stores_one_hand(browser, live_server, start_game, javascript):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  base_url=live_server.url, java_script_enabled=javascript)
    phone = context.new_page()
    try:
        game = start_game("trumps")
        sign_in(phone, "owner")
        phone.goto(f"/games/{game.pk}/")
        pick(phone, "declarer", "N · Ann")
        pick(phone, "bid", "7")
        pick(phone, "trump", "♥ Hearts")
        pick(phone, "tricks", "8")
        phone.get_by_role("button", name="Record hand 1").dblclick()
        phone.get_by_text(re.compile("Hand 1 recorded")).wait_for()
        expect(phone.locator('[data-total="NS"]')).to_have_text("6")
        assert Hand.objects.filter(game=game).count() == 1
    finally:
        context.close()

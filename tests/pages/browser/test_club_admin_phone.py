"""An organiser's smaller chores on a phone (390×844): passing on an invitation link (copied, or through the
phone's share sheet), and adding players one after another."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import invitation_create

from .conftest import phone_page, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The phone's share sheet (the Web Share API): the system's own dialog, played here by a stand-in that
# keeps what it was given. Headless Chromium on Linux has no share sheet of its own.
SHARE_SHEET = "navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };"


@pytest.fixture
def invitation(league, owner):
    return invitation_create(league=league, role="scorekeeper", by=owner)


def open_invitation(page, league, invitation) -> str:
    sign_in(page, "owner")
    page.goto(f"/leagues/{league.slug}/invitations/{invitation.pk}/")
    return page.locator("#invitation-link").input_value()


def test_an_invitation_link_is_copied_with_one_tap(phone, live_server, league, invitation):
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    link = open_invitation(phone, league, invitation)
    assert link.endswith(f"/invitations/{invitation.token}/")
    # No share sheet in this browser: no Share button.
    expect(phone.get_by_role("button", name="Share…")).to_be_hidden()
    phone.get_by_role("button", name="Copy the link").click()
    expect(phone.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert phone.evaluate("navigator.clipboard.readText()") == link


def test_an_invitation_link_goes_to_the_phones_share_sheet(browser, live_server, league, invitation):
    pages = phone_page(browser, live_server)
    page = next(pages)
    try:
        page.context.add_init_script(SHARE_SHEET)
        link = open_invitation(page, league, invitation)
        page.get_by_role("button", name="Share…").click()
        shared = page.evaluate("window.sharedWith")
        assert shared == {"title": "Join Thursday Club", "url": link,
                          "text": "An invitation to Thursday Club on Scorekeeper, as scorekeeper."}
    finally:
        next(pages, None)


def test_without_javascript_the_link_is_there_to_copy_by_hand(no_script_phone, league, invitation):
    link = open_invitation(no_script_phone, league, invitation)
    assert invitation.token in link
    expect(no_script_phone.get_by_role("button", name="Copy the link")).to_be_hidden()
    expect(no_script_phone.get_by_role("button", name="Share…")).to_be_hidden()


@pytest.mark.parametrize("script", [True, False], ids=["with-javascript", "without-javascript"])
def test_after_adding_a_player_the_name_field_is_ready_for_the_next(browser, live_server, league, script):
    pages = phone_page(browser, live_server, java_script_enabled=script)
    page = next(pages)
    try:
        sign_in(page, "owner")
        page.goto(f"/leagues/{league.slug}/players/")
        page.get_by_label("Name", exact=True).fill("Eve")
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.get_by_role("status").filter(has_text="Eve added")).to_be_visible()
        name = page.get_by_label("Name", exact=True)
        expect(name).to_be_focused()
        expect(name).to_be_in_viewport()
        # Straight on to the next one, from the keyboard.
        page.keyboard.type("Finn")
        page.keyboard.press("Enter")
        expect(page.get_by_role("status").filter(has_text="Finn added")).to_be_visible()
        expect(page.get_by_label("Name", exact=True)).to_be_focused()
        assert sorted(league.players.values_list("name", flat=True)) == ["Eve", "Finn"]
    finally:
        next(pages, None)

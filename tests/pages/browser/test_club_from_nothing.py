"""A club from nothing to its first recorded hand, through the web alone, on phones.

An organiser signs up, creates a private league with a house rule, makes an invitation link for a
scorekeeper; the scorekeeper opens the link on their own phone, signs up through it, accepts, starts
a game with four new players and records the first hand. Outsiders see nothing of the league.
"""

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, pick, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "shuffle-up-and-deal"


def sign_up(page, name: str, username: str) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()


def another_phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def test_a_club_from_nothing_to_its_first_hand(phone, browser, live_server):
    organiser = phone
    organiser.goto("/")
    organiser.get_by_role("link", name="Create an account").click()
    sign_up(organiser, "Olive Organiser", "olive")
    expect(organiser.get_by_text("Welcome, Olive Organiser!")).to_be_visible()
    expect(organiser.get_by_role("link", name="Admin")).to_have_count(0)

    organiser.get_by_role("link", name="Create a league").click()
    organiser.get_by_label("Name", exact=True).fill("Thursday Club")
    pick(organiser, "privacy", "Private: only its members see anything of it")
    organiser.locator("summary", has_text="Spades").click()
    organiser.get_by_label("Target", exact=True).first.fill("300")
    shoot(organiser, "new-league-phone")
    organiser.get_by_role("button", name="Create the league").click()
    expect(organiser.get_by_role("heading", name="Thursday Club")).to_be_visible()
    expect(organiser.get_by_text("private", exact=True)).to_be_visible()

    organiser.get_by_role("link", name="Invite people").first.click()
    pick(organiser, "role", "Scorekeeper: records hands and starts games")
    organiser.get_by_role("button", name="Make the link").click()
    link = organiser.locator("#invitation-link").input_value()
    qr = organiser.get_by_role("img", name="QR code of the invitation link")
    expect(qr).to_be_visible()
    # Not wait_for_function: it evaluates a string in the page, which the Content-Security-Policy forbids.
    expect(organiser.locator(".qr img")).to_have_js_property("complete", True)
    assert qr.evaluate("image => image.naturalWidth") > 0

    context, keeper = another_phone(browser, live_server)
    try:
        # An outsider sees nothing of the private league.
        keeper.goto("/leagues/thursday-club/")
        expect(keeper.get_by_role("heading", name="Not found")).to_be_visible()

        keeper.goto(link)
        expect(keeper.get_by_text("Olive Organiser invites you to join Thursday Club as a scorekeeper")).to_be_visible()
        keeper.get_by_role("link", name="Create an account").click()
        sign_up(keeper, "Sam Scorer", "sam")
        keeper.get_by_role("button", name="Accept and join as Sam Scorer").click()
        expect(keeper.get_by_text("Welcome to Thursday Club: you are now a scorekeeper of it.")).to_be_visible()

        keeper.locator(".section-head").get_by_role("link", name="New game").click()
        # Nothing played yet: which game, in the league just joined.
        expect(keeper.get_by_label("League")).to_have_value("thursday-club")
        keeper.get_by_role("button", name="Spades").click()
        # The league's house rules, in one line until asked for.
        expect(keeper.locator("details.rules-line summary")).to_contain_text("to 300")
        for seat, name in (("N", "Ann"), ("E", "Ben"), ("S", "Cat"), ("W", "Dan")):
            keeper.locator(f"#id_new_{seat}").fill(name)
        keeper.get_by_role("button", name="Start the game").click()

        for seat in "NESW":
            pick(keeper, f"bid_{seat}", "3")
        keeper.get_by_role("button", name="Next: Tricks").click()
        for seat, took in zip("NES", "433", strict=True):
            pick(keeper, f"tricks_{seat}", took)  # W's 3 are what is left of 13
        keeper.get_by_role("button", name="Record hand 1").click()
        expect(keeper.get_by_text("Hand 1 recorded")).to_be_visible()
        expect(keeper.locator('[data-total="NS"]')).to_have_text("61")
    finally:
        context.close()

    organiser.goto("/leagues/thursday-club/")
    expect(organiser.locator(".members")).to_contain_text("Sam Scorer (sam) Scorekeeper")
    expect(organiser.get_by_text("Ann & Cat")).to_be_visible()

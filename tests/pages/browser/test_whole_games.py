"""A whole game of each type entered through the phone UI, from the new-game form to the winner."""

import pytest
from playwright.sync_api import expect

from .conftest import pick, record, sign_in, start_via_form

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def spades_hand(page, bids, tricks):
    """The bids as they are made, then the tricks: the fourth player's are filled in from the other three."""
    for seat, bid in zip("NESW", bids, strict=True):
        pick(page, f"bid_{seat}", bid)
    page.get_by_role("button", name="Next: Tricks").click()
    for seat, took in zip("NES", tricks[:3], strict=True):
        pick(page, f"tricks_{seat}", took)
    if page.locator("#id_tricks_W_group input:checked").get_attribute("value") != tricks[3]:
        pick(page, "tricks_W", tricks[3])


def test_whole_spades_game(phone, league, players):
    sign_in(phone, "owner")
    start_via_form(phone, "spades", league.slug, target=100)
    spades_hand(phone, ["3", "3", "3", "3"], ["4", "3", "3", "2"])
    expect(phone.locator(".sum-count")).to_have_text("12 of 13 — too few")
    pick(phone, "tricks_W", "3")
    expect(phone.locator(".sum-count")).to_have_text("13 of 13")
    record(phone, 1)
    expect(phone.locator('[data-total="NS"]')).to_have_text("61")
    expect(phone.locator('[data-total="EW"]')).to_have_text("60")
    expect(phone.get_by_text("1 bag", exact=True)).to_be_visible()
    expect(phone.locator("#entry-title")).to_contain_text("Hand 2 · Ben deals")
    spades_hand(phone, ["3", "3", "3", "3"], ["4", "3", "3", "3"])
    record(phone, 2)
    expect(phone.get_by_role("heading", name="Ann & Cat win!")).to_be_visible()
    expect(phone.locator(".result")).to_contain_text("Ann & Cat 122")
    expect(phone.get_by_role("link", name="Rematch")).to_be_visible()
    phone.get_by_role("link", name="Rematch").click()
    expect(phone.locator("#id_seat_N")).to_have_value(str(players[0].pk))
    expect(phone.get_by_label("Target", exact=True)).to_have_value("100")


def test_whole_smudge_game(phone, league, players):
    sign_in(phone, "owner")
    start_via_form(phone, "smudge", league.slug, target=10)
    for field, label in (("bidder", "N · Ann"), ("bid", "2"), ("high", "NS · Ann & Cat"), ("low", "NS · Ann & Cat"),
                         ("jack", "Not dealt"), ("game", "NS · Ann & Cat")):
        pick(phone, field, label)
    record(phone, 1)
    expect(phone.locator('[data-total="NS"]')).to_have_text("3")
    for field, label in (("bidder", "S · Cat"), ("bid", "3"), ("high", "NS · Ann & Cat"), ("low", "EW · Ben & Dan"),
                         ("jack", "NS · Ann & Cat"), ("game", "NS · Ann & Cat")):
        pick(phone, field, label)
    record(phone, 2)
    expect(phone.locator('[data-total="NS"]')).to_have_text("6")
    expect(phone.locator('[data-total="EW"]')).to_have_text("1")
    for field, label in (("bidder", "W · Dan"), ("bid", "2"), ("high", "EW · Ben & Dan"), ("low", "EW · Ben & Dan"),
                         ("jack", "NS · Ann & Cat"), ("game", "NS · Ann & Cat")):
        pick(phone, field, label)
    record(phone, 3)
    for field, label in (("bidder", "N · Ann"), ("bid", "Smudge (5)"), ("high", "NS · Ann & Cat"),
                         ("low", "NS · Ann & Cat"), ("jack", "NS · Ann & Cat"), ("game", "NS · Ann & Cat"),
                         ("all_tricks", "Yes")):
        pick(phone, field, label)
    record(phone, 4)
    expect(phone.get_by_role("heading", name="Ann & Cat win!")).to_be_visible()
    expect(phone.locator('[data-total="NS"]')).to_have_text("13")
    expect(phone.locator('[data-total="EW"]')).to_have_text("3")


def test_whole_trumps_match_game(phone, league, players):
    sign_in(phone, "owner")
    start_via_form(phone, "trumps", league.slug, target=10, match=True)
    for number, (declarer, bid, trump, double, tricks) in enumerate([
        ("N · Ann", "7", "♥ Hearts", "No", "8"),
        ("E · Ben", "4", "No trump", "Doubled", "5"),
        ("S · Cat", "7", "♠ Spades", "No", "8"),
    ], 1):
        pick(phone, "declarer", declarer)
        pick(phone, "bid", bid)
        pick(phone, "trump", trump)
        pick(phone, "double", double)
        pick(phone, "tricks", tricks)
        record(phone, number)
    expect(phone.get_by_role("heading", name="Ann & Cat win!")).to_be_visible()
    expect(phone.locator('[data-total="EW"]')).to_have_text("6")
    phone.get_by_role("link", name="The match", exact=True).click()
    expect(phone.get_by_role("link", name="Go to game 2")).to_be_visible()


def test_whole_thieving_stink_game(phone, league, players):
    sign_in(phone, "owner")
    start_via_form(phone, "thieving_stink", league.slug, target=150)
    for number in (1, 2):
        pick(phone, "face_NS", "9")
        pick(phone, "face_EW", "5")
        pick(phone, "stack_size", "6")
        pick(phone, "stack_holder", "W · Dan")
        record(phone, number)
    expect(phone.get_by_role("heading", name="Ann & Cat win!")).to_be_visible()
    expect(phone.locator('[data-total="NS"]')).to_have_text("180")
    expect(phone.locator('[data-total="EW"]')).to_have_text("160")


def test_engine_error_shows_beside_the_field_in_the_browser(phone, league, players):
    sign_in(phone, "owner")
    start_via_form(phone, "thieving_stink", league.slug, target=150)
    pick(phone, "face_NS", "2")
    pick(phone, "face_EW", "2")
    pick(phone, "stack_size", "5")
    pick(phone, "stack_holder", "W · Dan")
    phone.get_by_role("button", name="Record hand 1").click()
    expect(phone.locator("#group-face_cards .field-error")).to_contain_text("at least 11 must have been won")
    expect(phone.locator("#id_face_NS_group").get_by_label("2", exact=True)).to_be_checked()

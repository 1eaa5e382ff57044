"""Starting a game on a phone (390×844): New game, the four players in seat order, Start; and Back, then Start
again, which must not start a second game (with and without JavaScript).

The taps it takes are kept in docs/table.md; this test measures them and fails if the page does worse.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.rules import rulesets
from games.services import game_start, player_create

from .conftest import shoot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[3] / "docs" / "table.md"
TABLE = ("Ann", "Ben", "Cat", "Dan")


@pytest.fixture
def club(league, owner, players):
    """A league with a few more players than one table, and a game already played (what it plays)."""
    for name in ("Eve", "Finn", "Gus", "Hal"):
        player_create(name=name, by=owner, league=league)
    return league


def documented_start_taps() -> dict[str, int]:
    """docs/table.md's taps to start each game (its "Starting a game" table): game -> taps."""
    rows = re.findall(r"^\| (\w[\w ]*?) \| (\d+) \|$", DOCS.read_text(), re.MULTILINE)
    return {name: int(taps) for name, taps in rows}


def chip(page, name):
    return page.locator(".seat-chips").get_by_role("button", name=re.compile(rf"^{name}\b"))


def seat_by_chips(page, names) -> int:
    """Tap each player not seated yet, in seat order; the taps it took."""
    taps = 0
    for name in names:
        if chip(page, name).get_attribute("aria-pressed") != "true":
            chip(page, name).click()
            taps += 1
    return taps


def at_the_table(page) -> None:
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 "))).to_be_visible()


@pytest.mark.parametrize("ruleset", rulesets(), ids=lambda ruleset: ruleset.game_type)
def test_a_league_game_with_four_known_players_starts_in_six_taps(phone, club, owner, seats, ruleset):
    # Last time this league played this game (with another table): New game goes straight to it.
    others = {seat: player.pk for seat, player in zip("NESW", club.players.order_by("-name")[:4], strict=True)}
    game_start(game_type=ruleset.game_type, seats=others, by=owner, league=club)
    sign_in(phone, "owner")
    phone.goto("/")
    taps = 0
    phone.get_by_role("navigation", name="Site").get_by_role("link", name="New game").click()
    taps += 1
    expect(phone.get_by_role("heading", name=f"New {ruleset.name} game")).to_be_visible()
    expect(phone.locator(".where")).to_contain_text(f"In {club.name}")
    taps += seat_by_chips(phone, TABLE)
    start = phone.get_by_role("button", name="Start the game")
    expect(start).to_be_in_viewport(ratio=1)  # Start is on the screen, under the thumb: no scrolling
    assert phone.evaluate("window.scrollY") == 0
    shoot(phone, f"new-game-{ruleset.game_type}-phone", full_page=False)
    start.click()
    taps += 1
    at_the_table(phone)
    game = Game.objects.latest("pk")
    assert (game.game_type, game.league_id) == (ruleset.game_type, club.pk)
    assert [game.seats[seat].name for seat in "NESW"] == list(TABLE)
    print(f"| {ruleset.name} | {taps} taps to start |")
    assert taps <= 6
    assert taps == documented_start_taps()[ruleset.name], "docs/table.md's taps to start differ"


def test_start_stays_in_view_in_a_club_of_two_dozen(phone, club, owner):
    for number in range(16):
        player_create(name=f"Member {number + 1}", by=owner, league=club)
    sign_in(phone, "owner")
    phone.goto(f"/games/new/?type=spades&league={club.slug}")
    assert phone.locator(".seat-chips button").count() == 24
    seat_by_chips(phone, TABLE)
    start = phone.get_by_role("button", name="Start the game")
    expect(start).to_be_in_viewport(ratio=1)
    assert phone.evaluate("window.scrollY") == 0
    # What lies under it is a scroll away, and tappable there: the last player, the house rules.
    phone.locator(".seat-chips").get_by_role("button", name="Member 16").click()
    expect(phone.locator(".seat-next")).to_contain_text("All four seats are taken")
    phone.locator("details.rules-line summary").click()
    expect(phone.get_by_label("Target", exact=True)).to_be_visible()
    start.click()
    at_the_table(phone)


def test_another_game_than_the_last_one_is_one_tap_more(phone, club, owner, seats):
    game_start(game_type="spades", seats=seats, by=owner, league=club)
    sign_in(phone, "owner")
    phone.get_by_role("navigation", name="Site").get_by_role("link", name="New game").click()
    phone.get_by_role("navigation", name="Other games").get_by_role("link", name="Smudge").click()
    expect(phone.get_by_role("heading", name="New Smudge game")).to_be_visible()
    seat_by_chips(phone, TABLE)
    # The house rules: one line, opened only when asked.
    rules = phone.locator("details.rules-line")
    expect(rules).not_to_have_attribute("open", "")
    expect(phone.get_by_label("Target", exact=True)).to_be_hidden()
    rules.locator("summary").click()
    phone.get_by_label("Target", exact=True).fill("15")
    phone.get_by_role("button", name="Start the game").click()
    at_the_table(phone)
    game = Game.objects.latest("pk")
    assert game.game_type == "smudge" and game.options["target"] == 15


def test_new_game_preselects_the_league_last_played_in(phone, club, owner, seats, make_user):
    from games.services import league_create

    other = league_create(name="Sunday Club", by=owner)
    player_create(name="Zed", by=owner, league=other)
    game_start(game_type="spades", seats=seats, by=owner, league=club)
    sign_in(phone, "owner")
    phone.get_by_role("navigation", name="Site").get_by_role("link", name="New game").click()
    expect(phone.locator(".where")).to_have_text(re.compile(r"In Thursday Club"))
    # Changing the league is a tap away, and the choice is kept from then on.
    phone.get_by_role("link", name="Change the league").click()
    phone.get_by_label("League").select_option(label="Sunday Club")
    phone.get_by_role("button", name="Trumps").click()
    expect(phone.locator(".where")).to_have_text(re.compile(r"In Sunday Club"))
    expect(phone.locator(".seat-chips").get_by_role("button", name="Zed")).to_be_visible()


def start_from_the_form(page) -> str:
    """Seat Ann, Ben, Cat, Dan with the selects (with or without script) and tap Start; the form's key."""
    key = page.locator("[name=idempotency_key]").input_value()
    grid = page.locator(".seat-grid").first
    if grid.is_hidden():  # the script's chips stand for the selects
        seat_by_chips(page, TABLE)
    else:
        for seat, name in zip("NESW", TABLE, strict=True):
            page.locator(f"#id_seat_{seat}").select_option(label=name)
    page.get_by_role("button", name="Start the game").click()
    at_the_table(page)
    return key


@pytest.mark.parametrize("script", [True, False], ids=["with-javascript", "without-javascript"])
def test_back_then_start_again_makes_one_game(browser, live_server, club, script):
    from .conftest import phone_page

    pages = phone_page(browser, live_server, java_script_enabled=script)
    page = next(pages)
    try:
        sign_in(page, "owner")
        page.goto(f"/games/new/?type=spades&league={club.slug}")
        key = start_from_the_form(page)
        first = Game.objects.get()
        page.go_back()
        # The same entry: the same key, and the page says what it already did.
        expect(page.get_by_text("This page already started")).to_be_visible()
        assert page.locator("[name=idempotency_key]").input_value() == key
        shoot(page, "new-game-back-phone", full_page=False)
        if script:
            seat_by_chips(page, TABLE)  # as the browser kept them, or again
        else:
            for seat, name in zip("NESW", TABLE, strict=True):
                page.locator(f"#id_seat_{seat}").select_option(label=name)
        page.get_by_role("button", name="Start the game").click()
        at_the_table(page)
        assert page.url.endswith(f"/games/{first.pk}/")
        # A reload of the form, and Back once more: still the one game.
        page.go_back()
        page.reload()
        assert page.locator("[name=idempotency_key]").input_value() == key
        page.get_by_role("link", name="Open that game").click()
        at_the_table(page)
        assert Game.objects.count() == 1
    finally:
        next(pages, None)


def test_a_new_visit_is_a_new_entry(phone, club):
    sign_in(phone, "owner")
    phone.goto(f"/games/new/?type=spades&league={club.slug}")
    start_from_the_form(phone)
    # Not Back: New game again, for the next game of the evening with the same table.
    phone.get_by_role("navigation", name="Site").get_by_role("link", name="New game").click()
    expect(phone.get_by_text("This page already started")).to_have_count(0)
    seat_by_chips(phone, TABLE)
    phone.get_by_role("button", name="Start the game").click()
    at_the_table(phone)
    assert Game.objects.count() == 2


@pytest.fixture
def cached_phone(browser, live_server):
    """A phone whose Back restores the page from the browser's back/forward cache, as a phone's browser does
    (Playwright turns that cache off unless asked)."""
    from .conftest import ARGS, CHROMIUM

    kept = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS, headless=True,
                                       ignore_default_args=["--disable-back-forward-cache"])
    try:
        from .conftest import phone_page

        yield from phone_page(kept, live_server)
    finally:
        kept.close()


def test_back_from_the_page_cache_then_start_again_makes_one_game(cached_phone, club):
    page = cached_phone
    sign_in(page, "owner")
    page.goto(f"/games/new/?type=spades&league={club.slug}")
    page.evaluate("window.shownBefore = true")
    key = start_from_the_form(page)
    first = Game.objects.get()
    page.go_back(wait_until="commit")  # a page from the cache fires no load event
    expect(page.get_by_role("heading", name="New Spades game")).to_be_visible()
    # The very page left behind, seats and all, from the page cache: not asked for again.
    assert page.evaluate("window.shownBefore === true"), "Back did not restore the page from the page cache"
    assert page.locator("[name=idempotency_key]").input_value() == key
    expect(page.locator(".seat-chips").get_by_role("button", name=re.compile(r"^Dan\b"))).to_have_attribute(
        "aria-pressed", "true")
    start = page.get_by_role("button", name="Start the game")
    expect(start).not_to_have_attribute("aria-disabled", "true")  # not left "sending" by the first Start
    start.click()
    at_the_table(page)
    assert page.url.endswith(f"/games/{first.pk}/")
    assert Game.objects.count() == 1

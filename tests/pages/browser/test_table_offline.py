"""The table page at a real table, in a real browser at phone size: bad Wi-Fi, no Wi-Fi, Back, reload,
another phone, an ended session. Whatever happens, every hand is stored once, in order, or waits on
the phone until the scorekeeper decides."""

from __future__ import annotations

import re
from importlib import import_module
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from games.models import Hand
from games.services import game_start, hand_record

from .conftest import PASSWORD, PHONE, shoot
from .network import ANSWERS_LOST, DOWN, UP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Hand 1 of a Spades game: N 3 (3), E 4 (5), S 2 (2), W 4 (3): NS +50, EW +80.
FIRST = (("3", "4", "2", "4"), ("3", "5", "2", "3"))
SECOND = (("2", "3", "3", "4"), ("2", "4", "3", "4"))
RECORDS = {
    FIRST: {"bids": {"N": 3, "E": 4, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 5, "S": 2, "W": 3}},
    SECOND: {"bids": {"N": 2, "E": 3, "S": 3, "W": 4}, "tricks": {"N": 2, "E": 4, "S": 3, "W": 4}},
}


@pytest.fixture
def game(league, owner, seats):
    return game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 500})


def sign_in(page, username: str = "owner") -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign out").wait_for()


CONTROLLED = """() => navigator.serviceWorker.controller !== null || new Promise((resolve, reject) => {
  navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true), {once: true});
  setTimeout(() => reject(new Error("no service worker took control of the page in 10 s")), 10000);
})"""


def open_table(page, game) -> None:
    page.goto(f"/games/{game.pk}/")
    # The service worker controls the page once it is active: from then on the page loads offline.
    # Waited for by its event, not wait_for_function: that polls by evaluating a string in the page, which
    # the Content-Security-Policy refuses whenever the first look finds no controller yet.
    page.evaluate(CONTROLLED)
    expect(page.locator("#entry-title")).to_contain_text("Hand")


def tap(page, field: str, label: str) -> None:
    page.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()


def enter_spades(page, hand) -> int:
    """Enter a Spades hand as a scorekeeper does, and tap Record; the number of taps it took."""
    bids, tricks = hand
    taps = 0
    for seat, bid in zip("NESW", bids, strict=True):
        tap(page, f"bid_{seat}", bid)
        taps += 1
    page.get_by_role("button", name="Next: Tricks").click()
    taps += 1
    for seat, took in zip("NES", tricks[:3], strict=True):
        tap(page, f"tricks_{seat}", took)
        taps += 1
    shoot(page, "table-tricks-phone", full_page=False)
    # The fourth player's tricks are what is left of 13.
    expect(page.locator("#id_tricks_W_group input:checked")).to_have_value(tricks[3])
    page.get_by_role("button", name=re.compile(r"^Record hand")).click()
    return taps + 1


def stored(game) -> list[dict]:
    return [hand.record for hand in Hand.objects.filter(game=game).order_by("number")]


def go_offline(page, wifi) -> None:
    wifi.set(DOWN)
    page.context.set_offline(True)


def go_online(page, wifi) -> None:
    wifi.set(UP)
    page.context.set_offline(False)


def test_a_hand_is_recorded_with_nine_taps_and_the_next_entry_and_totals_stay_in_view(table_phone, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    assert enter_spades(page, FIRST) <= 9
    expect(page.locator("#outbox-status")).to_have_text("✓ Hand 1 recorded: NS +50, EW +80.")
    shoot(page, "table-recorded-phone", full_page=False)
    assert stored(game) == [RECORDS[FIRST]]
    expect(page.locator('[data-total="NS"]')).to_have_text("50")
    expect(page.locator("#entry-title")).to_contain_text("Hand 2")
    for element in ('[data-total="NS"]', '[data-total="EW"]', "#outbox-status", "#entry-title",
                    "#id_bid_N_group", "button.step-next"):
        expect(page.locator(element)).to_be_in_viewport()
    assert page.evaluate("window.scrollY") == 0
    # The entry starts blank, with a key of its own.
    assert page.locator("form[data-outbox] input[type=radio]:checked").count() == 0


def test_back_then_record_stores_nothing_new(table_phone, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    enter_spades(page, FIRST)
    expect(page.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    page.get_by_role("link", name="Spectator view (for a TV)").click()
    page.go_back()
    expect(page.locator("#entry-title")).to_contain_text("Hand 2")
    assert page.locator("form[data-outbox] input[type=radio]:checked").count() == 0
    # Sending the entry as it stands is refused (nothing chosen): nothing new is stored.
    page.locator("form[data-outbox]").evaluate("form => form.requestSubmit()")
    expect(page.locator("#outbox-status")).to_contain_text("was not recorded")
    assert stored(game) == [RECORDS[FIRST]]


def test_back_then_record_stores_nothing_new_without_javascript(browser, wifi, game):
    context = browser.new_context(viewport=PHONE, base_url=wifi.url, java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page)
        page.goto(f"/games/{game.pk}/")
        for seat, bid, took in zip("NESW", *FIRST, strict=True):
            tap(page, f"bid_{seat}", bid)
            tap(page, f"tricks_{seat}", took)
        page.get_by_role("button", name="Record hand 1").click()
        expect(page.get_by_text("Hand 1 recorded.")).to_be_visible()
        page.go_back()
        page.go_forward()
        page.go_back()
        # Whatever page the browser shows, its form never holds hand 1 again.
        assert page.locator("form[data-outbox] input[type=radio]:checked").count() == 0
        page.locator("form[data-outbox] button[type=submit]").click()
        assert stored(game) == [RECORDS[FIRST]]
    finally:
        context.close()


def test_a_lost_answer_then_the_retry_stores_the_hand_once(table_phone, wifi, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    wifi.set(ANSWERS_LOST)
    enter_spades(page, FIRST)
    # The server stored the hand, but the phone never heard: the hand waits, and the form moves on.
    expect(page.locator("#outbox-status")).to_contain_text("not yet scored")
    expect(page.locator(".hand.kept.waiting")).to_have_count(1)
    expect(page.locator("#entry-title")).to_contain_text("Hand 2")
    assert stored(game) == [RECORDS[FIRST]] and wifi.answers_dropped
    wifi.set(UP)
    # Retried by itself, with the same key: the server answers with the hand it already has.
    expect(page.locator("#outbox-status")).to_have_text("✓ Hand 1 recorded: NS +50, EW +80.", timeout=15_000)
    expect(page.locator(".hand.kept")).to_have_count(0)
    assert stored(game) == [RECORDS[FIRST]]


def test_a_lost_answer_then_back_and_record_stores_the_hand_once_without_javascript(browser, wifi, game):
    context = browser.new_context(viewport=PHONE, base_url=wifi.url, java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page)
        page.goto(f"/games/{game.pk}/")
        for seat, bid, took in zip("NESW", *FIRST, strict=True):
            tap(page, f"bid_{seat}", bid)
            tap(page, f"tricks_{seat}", took)
        wifi.set(ANSWERS_LOST)
        # No answer comes back: the browser shows its own error page.
        with page.expect_event("framenavigated", predicate=lambda frame: frame.url.startswith("chrome-error")):
            page.get_by_role("button", name="Record hand 1").click(no_wait_after=True)
        assert stored(game) == [RECORDS[FIRST]]
        wifi.set(UP)
        page.goto(f"/games/{game.pk}/")  # the scorekeeper goes back to the game
        expect(page.locator("#hand-1")).to_be_visible()
        assert page.locator("form[data-outbox] input[type=radio]:checked").count() == 0
        page.locator("form[data-outbox] button[type=submit]").click()
        assert stored(game) == [RECORDS[FIRST]]
    finally:
        context.close()


def test_hands_entered_offline_survive_a_reload_and_are_sent_in_order_when_the_network_is_back(table_phone, wifi,
                                                                                                 game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    go_offline(page, wifi)
    expect(page.locator("#connection")).to_contain_text("Offline")
    enter_spades(page, FIRST)
    expect(page.locator("#entry-title")).to_contain_text("Hand 2")
    enter_spades(page, SECOND)
    expect(page.locator("#entry-title")).to_contain_text("Hand 3")
    expect(page.locator(".hand.kept.waiting")).to_have_count(2)
    expect(page.locator(".hand.kept.waiting").first).to_contain_text("waiting — not yet scored")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-offline-phone", full_page=False)
    page.locator("#hands").scroll_into_view_if_needed()
    shoot(page, "table-waiting-phone", full_page=False)

    page.reload()  # offline: the page as last seen, from the phone, with the hands that wait
    expect(page.locator("#connection")).to_contain_text("Offline")
    expect(page.locator(".hand.kept.waiting")).to_have_count(2)
    expect(page.locator("#entry-title")).to_contain_text("Hand 3")
    assert stored(game) == []

    go_online(page, wifi)  # no tap: the page sends them as soon as the connection is back
    expect(page.locator("#outbox-status")).to_contain_text("Hand 2 recorded", timeout=15_000)
    assert stored(game) == [RECORDS[FIRST], RECORDS[SECOND]]
    expect(page.locator(".hand.kept")).to_have_count(0)
    expect(page.locator("#hand-2")).to_be_visible()


def test_a_hand_another_phone_recorded_first_needs_review_and_nothing_is_stored(table_phone, wifi, game, owner):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    go_offline(page, wifi)
    enter_spades(page, FIRST)
    hand_record(game=game, record=RECORDS[SECOND], by=owner)  # the other phone
    go_online(page, wifi)
    review = page.locator(".hand.kept.review")
    expect(review).to_contain_text("needs review", timeout=15_000)
    expect(review).to_contain_text("Another phone recorded hand 1 first")
    expect(page.locator("#outbox-status")).to_contain_text("needs you")
    assert stored(game) == [RECORDS[SECOND]]
    review.evaluate("card => card.scrollIntoView({block: 'center'})")  # at once: a refresh may still redraw it
    shoot(page, "table-review-phone", full_page=False)

    page.once("dialog", lambda dialog: dialog.accept())
    review.get_by_role("button", name="Send as hand 2").click()
    expect(page.locator("#outbox-status")).to_contain_text("Hand 2 recorded")
    assert stored(game) == [RECORDS[SECOND], RECORDS[FIRST]]


def test_dropping_a_hand_that_needs_review_asks_first(table_phone, wifi, game, owner):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    go_offline(page, wifi)
    enter_spades(page, FIRST)
    hand_record(game=game, record=RECORDS[FIRST], by=owner)  # the same hand, from the other phone
    go_online(page, wifi)
    review = page.locator(".hand.kept.review")
    expect(review).to_be_visible(timeout=15_000)
    page.once("dialog", lambda dialog: dialog.dismiss())
    review.get_by_role("button", name="Drop this hand").click()
    expect(review).to_be_visible()  # the scorekeeper said no: it stays
    page.once("dialog", lambda dialog: dialog.accept())
    review.get_by_role("button", name="Drop this hand").click()
    expect(page.locator(".hand.kept")).to_have_count(0)
    assert stored(game) == [RECORDS[FIRST]]


def test_an_ended_session_keeps_the_hands_and_sends_them_after_signing_in(table_phone, wifi, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    go_offline(page, wifi)
    enter_spades(page, FIRST)
    # The session ends while the phone is offline, as a sign-out elsewhere ends it: through the session store,
    # which keeps sessions in the cache as well as the database when there is a Redis.
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in Session.objects.values_list("session_key", flat=True):
        store(key).delete()
    go_online(page, wifi)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text("Your session has ended", timeout=15_000)
    expect(page.locator(".hand.kept")).to_have_count(1)
    assert stored(game) == []
    status.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#outbox-status")).to_contain_text("Hand 1 recorded", timeout=15_000)
    assert stored(game) == [RECORDS[FIRST]]


def test_a_refused_hand_brings_its_error_into_view_and_focus(table_phone, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    # A blind nil needs the side to be 100 behind; at 0 to 0 it is refused.
    for seat, bid in zip("NESW", ["Blind nil", "4", "5", "4"], strict=True):
        tap(page, f"bid_{seat}", bid)
    page.get_by_role("button", name="Next: Tricks").click()
    for seat, took in zip("NES", ["0", "4", "5"], strict=True):
        tap(page, f"tricks_{seat}", took)
    page.get_by_role("button", name="Record hand 1").click()
    error = page.locator("#id_bid_N_group .field-error")
    expect(error).to_contain_text("blind nil needs NS to be at least 100 behind")
    expect(error).to_be_in_viewport()
    assert page.evaluate("document.activeElement.name") == "bid_N"
    assert stored(game) == []
    # Fixed where it stands, it is recorded.
    tap(page, "bid_N", "Nil")
    page.get_by_role("button", name="Next: Tricks").click()
    page.get_by_role("button", name="Record hand 1").click()
    expect(page.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    assert len(stored(game)) == 1


def test_online_the_page_is_never_the_stale_copy(table_phone, game, owner):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    hand_record(game=game, record=RECORDS[FIRST], by=owner)  # another phone
    page.reload()
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator('[data-total="EW"]')).to_have_text("80")


def test_a_table_page_opened_while_the_worker_installs_is_taken_over_and_loads_offline(table_phone, wifi, game):
    page = table_phone
    held = []
    # The worker's install waits for its list of files until the table page has loaded without it.
    page.context.route("**/sw-shell.json", lambda route: held.append(route))
    sign_in(page)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")
    for _ in range(200):  # the worker's request, sent once the sign-in page registered it
        if held:
            break
        page.wait_for_timeout(50)
    assert held
    assert page.evaluate("navigator.serviceWorker.controller") is None
    held[0].continue_()
    page.context.unroute("**/sw-shell.json")
    page.evaluate(CONTROLLED)
    go_offline(page, wifi)
    page.reload()  # the copy kept when the worker took the page over
    expect(page.locator("#connection")).to_contain_text("Offline")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")


def test_a_file_lost_on_the_way_does_not_cost_the_phone_its_worker(table_phone, wifi, game):
    page = table_phone
    lost = []
    page.context.route("**/static/icon-512.png", lambda route: lost.append(route) or route.abort())
    sign_in(page)
    open_table(page, game)
    assert lost  # the worker asked for it, and installed without it
    page.context.unroute("**/static/icon-512.png")
    go_offline(page, wifi)
    page.reload()
    expect(page.locator("#connection")).to_contain_text("Offline")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")


def test_the_app_installs_from_a_manifest_with_a_worker_at_the_root(table_phone, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    worker = urlsplit(page.evaluate("navigator.serviceWorker.controller.scriptURL"))
    shell = page.evaluate("fetch('/sw-shell.json').then(r => r.json())")
    assert (worker.path, worker.query) == ("/sw.js", f"v={shell['version']}")
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}


def test_the_page_follows_a_phone_set_to_dark_and_keeps_the_screen_on(browser, wifi, game):
    context = browser.new_context(viewport=PHONE, base_url=wifi.url, color_scheme="dark")
    # The screen itself is the boundary: record the page's requests to keep it on.
    context.add_init_script("""
        window.__wakeLocks = 0;
        Object.defineProperty(navigator, "wakeLock", {value: {request: () => {
            window.__wakeLocks += 1;
            return Promise.resolve({addEventListener() {}});
        }}});
    """)
    page = context.new_page()
    try:
        sign_in(page)
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#entry-title")).to_contain_text("Hand 1")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 20, 22)", background
        assert page.evaluate("window.__wakeLocks") >= 1
        page.goto(f"/games/{game.pk}/live/")
        assert page.evaluate("window.__wakeLocks") >= 1
        page.goto("/")
        assert page.evaluate("window.__wakeLocks") == 0  # only the table and the spectator view
    finally:
        context.close()


def test_a_page_opened_from_the_phones_copy_says_when_it_was_made(table_phone, wifi, game):
    page = table_phone
    sign_in(page)
    open_table(page, game)
    wifi.set(DOWN)  # the Wi-Fi is there, but leads nowhere: the browser still believes it is online
    page.reload()
    expect(page.locator("#connection")).to_contain_text("Offline: this is the game as it was at")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")

"""Browser tests: real headless Chromium (Debian's package) driven by Playwright, against live_server.

They skip on a machine without /usr/bin/chromium, and fail there when REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import need

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# test_screenshots.py saves its pictures here only when asked (`make screenshots` names docs/screenshots/):
# a test run leaves the tracked pictures alone.
SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")
PASSWORD = "a-long-table-password"

# Playwright's sync API runs an event loop in this thread; Django then refuses ORM calls from it
# unless told they are safe (they are: the live server runs in its own thread).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.fixture(scope="session")
def browser():
    need(os.path.exists(CHROMIUM), f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # What a page comes to show, it may take up to 10 s to show on a machine shared with other work (as actions
    # may: set_default_timeout), not Playwright's 5 s; a promise of a time ("within 3 s") names its own timeout.
    expect.set_options(timeout=10_000)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def phone_page(browser, live_server, **options):
    """A page in a phone-sized browser context of its own (``java_script_enabled=False`` and the like passed
    on), closed with its context after the test."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  base_url=live_server.url, **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser, live_server):
    yield from phone_page(browser, live_server)


@pytest.fixture
def wifi(live_server):
    """The phones' Wi-Fi (``network.Wifi``): a relay to the live server that the test cuts."""
    from .network import Wifi

    net = Wifi(int(live_server.url.rsplit(":", 1)[1]))
    yield net
    net.close()


@pytest.fixture
def table_phone(browser, wifi):
    """A phone at the table, on the Wi-Fi the test controls, with JavaScript and a service worker."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  base_url=wifi.url, service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def no_script_phone(browser, live_server):
    """A phone with JavaScript turned off: the pages as they are before any script enhances them."""
    yield from phone_page(browser, live_server, java_script_enabled=False)


@pytest.fixture
def desktop(browser, live_server):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign out").wait_for()


def pick(page, field: str, label: str) -> None:
    """Tap the chip ``label`` of the radio group ``field``."""
    page.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()


def start_via_form(page, game_type: str, league_slug: str = "", *, target: int, match: bool = False) -> None:
    """Start a game through the new-game form with Ann, Ben, Cat, Dan seated N, E, S, W (tapped in seat
    order), the target changed in the house rules."""
    page.goto(f"/games/new/?type={game_type}&league={league_slug}")
    for name in ("Ann", "Ben", "Cat", "Dan"):
        page.locator(".seat-chips").get_by_role("button", name=re.compile(rf"^{name}\b")).click()
    page.locator("details.rules-line summary").click()
    page.get_by_label("Target", exact=True).fill(str(target))
    if match:
        page.get_by_label("Play a three-game match").check()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("heading", name=re.compile(r"^Hand 1 ")).wait_for()


def record(page, number: int) -> None:
    """Tap Record and wait for the confirmation (the page's own line, or the server's message without script)."""
    page.get_by_role("button", name=f"Record hand {number}").click()
    page.get_by_text(re.compile(rf"Hand {number} recorded")).wait_for()


def shoot(page, name: str, *, full_page: bool = True) -> None:
    """Save a picture (of the whole page, or of the screen) as ``SCREENSHOTS_DIR/NAME.png``, when
    SCREENSHOTS_DIR is set."""
    if not SCREENSHOTS:
        return
    # Fonts, icons and what scripts fetch are in the picture only once the page's network has settled.
    page.wait_for_load_state("networkidle")
    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)

"""Every page works under its Content-Security-Policy in a real browser: Chromium reports no violation (no
inline script or style on our pages; the API documentation's Swagger UI only within its own relaxed
policy) and no console error, and the pages still do their work (the docs page draws the API)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import hand_record, match_start

from .conftest import PHONE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}
# Every violation the page reports, whatever the console says.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (event) => window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));
"""


@pytest.fixture
def watching(browser, live_server):
    """A phone-sized browser context whose pages record CSP violations."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_init_script(WATCH)
    yield context
    context.close()


def watched_page(context):
    """A page of ``context`` that also records its console errors."""
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    return page


@pytest.fixture
def watched(watching):
    return watched_page(watching)


def assert_quiet(page, path: str) -> None:
    """Once the page's network has settled: no violation, and no console error but a 404 page's own."""
    page.wait_for_load_state("networkidle")
    violations = page.evaluate("window.__violations")
    assert violations == [], f"{path}: {violations}"
    errors = [text for text in page.console_errors if "404" not in text]
    assert errors == [], f"{path}: {errors}"
    page.console_errors.clear()


def visit(page, path: str) -> None:
    response = page.goto(path)
    assert response is not None and response.status < 500, path
    assert_quiet(page, path)


def visit_all(context, paths) -> None:
    """Each path in a page of its own, all loaded before any is checked: the half second of quiet that
    "networkidle" waits for then passes once for them all, not once a page."""
    pages = []
    for path in paths:
        page = watched_page(context)
        response = page.goto(path)
        assert response is not None and response.status < 500, path
        pages.append((path, page))
    for path, page in pages:
        assert_quiet(page, path)
        page.close()


@pytest.fixture
def things(owner, league, seats, start_game, settings):
    from games.services import invitation_create

    owner.is_staff = owner.is_superuser = True
    owner.save()
    game = start_game("spades")
    hand_record(game=game, record=HAND, by=owner)
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league)
    invitation = invitation_create(league=league, role="member", by=owner)
    return {"game": game.pk, "league": league.slug, "player": seats["N"], "match": match.pk,
            "invitation": invitation.token}


def test_the_pages_load_with_no_policy_violation(watching, things):
    visit_all(watching, ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                         f"/invitations/{things['invitation']}/", f"/games/{things['game']}/live/",
                         f"/leagues/{things['league']}/", "/offline/", "/no-such-page/"))
    signing_in = watched_page(watching)
    sign_in(signing_in, "owner")
    signing_in.close()
    visit_all(watching, ("/", "/games/new/", "/games/new/?type=spades", f"/games/{things['game']}/",
                         f"/games/{things['game']}/hands/1/correct/", f"/games/{things['game']}/undo/",
                         f"/games/{things['game']}/abandon/", f"/leagues/{things['league']}/",
                         f"/players/{things['player']}/", f"/matches/{things['match']}/",
                         f"/games/{things['game']}/live/", "/accounts/profile/", "/leagues/new/",
                         f"/leagues/{things['league']}/edit/", f"/leagues/{things['league']}/players/",
                         f"/leagues/{things['league']}/invitations/", "/admin/", "/admin/games/game/",
                         f"/admin/games/game/{things['game']}/change/"))


def test_the_table_page_scripts_still_run(watched, owner, league, seats):
    from games.services import game_start

    game = game_start(game_type="trumps", seats=seats, by=owner, league=league)
    sign_in(watched, "owner")
    visit(watched, f"/games/{game.pk}/")
    for field, label in (("declarer", "N · Ann"), ("bid", "7"), ("trump", "♥ Hearts"), ("tricks", "8")):
        watched.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()
    watched.get_by_role("button", name="Record hand 1").click()
    # table.js and outbox.js sent the hand with fetch() and said so: they ran under the policy.
    expect(watched.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    assert watched.evaluate("window.__violations") == []
    assert watched.console_errors == []


def test_the_api_documentation_draws_the_api_under_its_own_policy(watched, things, live_server):
    visit(watched, "/api/v1/docs/")
    expect(watched.get_by_role("heading", name="Scorekeeper API", level=1)).to_be_visible()
    expect(watched.get_by_text("/api/v1/games/{id}/hands/", exact=True).first).to_be_visible()
    assert watched.evaluate("window.__violations") == []

"""Every page passes axe-core (the accessibility rules engine, from npm: `make install`) with no violation, in
the light theme and in the dark one, at phone size (390×844): the demo league, with what a club adds to it
(a season, a webhook, an invitation, a claim, a correction and an undo, a casual game), page by page, and
the pages in the states a scorekeeper brings them to (the house rules opened, Spades' tricks step)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.demo import DEMO_PASSWORD, load_demo
from games.models import Game, Hand, League, Match, Player
from games.rules import rulesets
from tests.conftest import need

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"
# What each violation says: the rule, and where (the first few elements).
RUN = """() => axe.run(document, {resultTypes: ["violations"]}).then((results) => results.violations.map(
  (violation) => `${violation.id} (${violation.impact}): ${violation.help}; at ` +
                 violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ")))"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    need(AXE.exists(), f"axe-core at {AXE} (make install)")
    return AXE.read_text()


@pytest.fixture
def club(settings):
    """The demo league, plus what a club's first weeks add to it. Paths by name."""
    from games.services import (
        game_start,
        hand_correct,
        hand_undo,
        invitation_create,
        player_claim,
        season_create,
        webhook_create,
    )

    league = load_demo()
    organiser, scorer = (league.created_by, league.memberships.get(role="scorekeeper").user)
    member = type(organiser).objects.create_user("member", password=DEMO_PASSWORD, first_name="Mo")
    from tests.conftest import join

    join(league, member, "member", organiser)
    claimed = Player.objects.get(name="Hal")
    player_claim(league=league, player=claimed, by=member)
    season_create(league=league, name="Autumn", by=organiser)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOK_ALLOW_HTTP = True
    hook = webhook_create(league=league, url="http://127.0.0.1:9/hooks", events=["hand.recorded"], by=organiser)
    invitation = invitation_create(league=league, role="member", by=organiser)
    spades = Game.objects.get(league=league, game_type="spades", status=Game.Status.IN_PROGRESS)
    first = Hand.objects.get(game=spades, number=1)
    hand_correct(game=spades, number=1, record={**first.record, "note": "counted again"}, by=scorer,
                 reason="a trick was miscounted")
    hand_undo(game=spades, by=scorer, reason="entered twice")
    seats = {seat: player.pk for seat, player in zip("NESW", Player.objects.order_by("name")[:4], strict=True)}
    casual = game_start(game_type="smudge", seats=seats, by=scorer)
    slug = league.slug
    games = Game.objects.filter(league=league)
    return {
        "league": league, "spades": spades, "invitation": invitation,
        "anonymous": [
            "/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/offline/",
            "/no-such-page/", f"/invitations/{invitation.token}/", f"/leagues/{slug}/",
            f"/games/{spades.pk}/", f"/games/{spades.pk}/live/", f"/players/{claimed.pk}/", "/api/v1/docs/",
        ],
        "organiser": [
            "/", "/games/new/?choose=1", "/accounts/profile/", "/accounts/password_change/", "/leagues/new/",
            "/leagues/new/from-backup/", f"/leagues/{slug}/", f"/leagues/{slug}/edit/", f"/leagues/{slug}/players/",
            f"/leagues/{slug}/invitations/", f"/leagues/{slug}/invitations/{invitation.pk}/",
            f"/leagues/{slug}/seasons/", f"/leagues/{slug}/webhooks/", f"/leagues/{slug}/webhooks/{hook.pk}/",
            *(f"/leagues/{slug}/standings/{ruleset.game_type}/{table}/"
              for ruleset in rulesets() for table in ("players", "partnerships")),
            *(f"/games/new/?type={ruleset.game_type}&league={slug}" for ruleset in rulesets()),
            *(f"/games/{game.pk}/" for game in games.order_by("pk")),
            f"/games/{spades.pk}/hands/1/correct/", f"/games/{spades.pk}/undo/", f"/games/{spades.pk}/abandon/",
            f"/games/{spades.pk}/live/", *(f"/matches/{match.pk}/" for match in Match.objects.all()),
            f"/players/{claimed.pk}/", f"/players/{claimed.pk}/?season=current",
        ],
        "scorer": [f"/games/{casual.pk}/", "/games/new/"],
        "member": ["/", f"/leagues/{slug}/players/", "/accounts/profile/"],
    }


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign out").wait_for()


def violations(page, axe_source: str) -> list[str]:
    # Run through the browser's debugging protocol, which the pages' Content-Security-Policy does not govern.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(axe_source)
    return page.evaluate(RUN)


# Pages drawn by a script from what it fetches: checked once the network is quiet.
FETCHING = ("/api/v1/docs/",)


def check(page, axe_source: str, path: str, found: dict[str, list[str]]) -> None:
    response = page.goto(path)
    assert response is not None and response.status < 500, path
    if path in FETCHING:
        page.wait_for_load_state("networkidle")
    problems = violations(page, axe_source)
    if problems:
        found[path] = problems


def test_every_page_has_no_axe_violation_in_either_theme(browser, live_server, club, axe_source):
    found: dict[str, list[str]] = {}
    checked = 0
    for scheme in ("light", "dark"):
        for who in ("anonymous", "organiser", "scorer", "member"):
            context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                          base_url=live_server.url, color_scheme=scheme)
            page = context.new_page()
            page.set_default_timeout(30_000)
            try:
                if who != "anonymous":
                    sign_in(page, who)
                themed: dict[str, list[str]] = {}
                for path in club[who]:
                    check(page, axe_source, path, themed)
                    checked += 1
                if who == "organiser":
                    checked += check_states(page, axe_source, club, themed)
                found.update({f"{scheme}, {who}: {path}": problems for path, problems in themed.items()})
            finally:
                context.close()
    assert checked > 100
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


def check_states(page, axe_source: str, club, found: dict[str, list[str]]) -> int:
    """The pages as a scorekeeper leaves them: the house rules opened, Spades' tricks step, an error shown."""
    league: League = club["league"]
    page.goto(f"/games/new/?type=spades&league={league.slug}")
    page.locator("details.rules-line summary").click()
    page.get_by_role("button", name="Start the game").click()  # no seats: the errors beside the fields
    expect(page.locator(".field-error").first).to_be_visible()
    if problems := violations(page, axe_source):
        found["new game: rules open, errors shown"] = problems
    spades = club["spades"]
    page.goto(f"/games/{spades.pk}/")
    for seat in "NESW":
        page.locator(f"#id_bid_{seat}_group").get_by_label("3", exact=True).check()
    page.get_by_role("button", name="Next: Tricks").click()
    expect(page.locator("#id_tricks_N_group")).to_be_visible()
    if problems := violations(page, axe_source):
        found["table: Spades' tricks step"] = problems
    return 2

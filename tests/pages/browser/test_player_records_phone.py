"""A player's partners and opponents on a phone (390 x 844) with JavaScript off: no sideways scrolling, the
filters work as a plain form, and the other players are a tap away."""

from __future__ import annotations

import os
import random

import pytest
from django.db import transaction

from games.services import game_set_public, game_start, hand_record, league_create, player_create

from .conftest import PHONE
from .test_league_tables_phone import HANDS, NAMES, TARGETS, fits_the_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def busy_player(owner):
    """Maximiliana, who played every game with many long-named partners and opponents: in her long-named
    league, and at casual tables shared with anyone."""
    rng = random.Random(15)
    # In one transaction, as the league tables' test builds its league (test_league_tables_phone.py).
    with transaction.atomic():
        league = league_create(name="Tuesday Night Spades and Smudge Society", by=owner)
        me = player_create(name="Maximiliana Featherstonehaugh-Wiśniewska", by=owner, league=league)
        people = [player_create(name=f"{rng.choice(NAMES)} {n}", by=owner, league=league) for n in range(16)]
        for game_type in HANDS:
            for n in range(12):
                partner, left, right = rng.sample(people[:6] if n % 2 else people, 3)
                seats = {"N": me.pk, "E": left.pk, "S": partner.pk, "W": right.pk}
                if n % 4 == 1:  # sitting East-West, she loses (North-South win every game here)
                    seats = {"N": left.pk, "E": me.pk, "S": right.pk, "W": partner.pk}
                game = game_start(game_type=game_type, seats=seats, by=owner,
                                  league=league if n % 3 == 0 else None, options={"target": TARGETS[game_type]})
                if game.league_id is None:
                    game_set_public(game=game, public=True, by=owner)
                for _ in range(2 if game_type == "spades" else 1):
                    hand_record(game=game, record=HANDS[game_type], by=owner)
    return me, league


def shoot(page, name: str) -> None:
    """For a person to look at (``SCOREKEEPER_SHOTS=/some/folder``): the section's first screens."""
    top = page.evaluate("document.getElementById('records').getBoundingClientRect().top + window.scrollY")
    page.screenshot(path=f"{os.environ['SCOREKEEPER_SHOTS']}/{name}", full_page=True,
                    clip={"x": 0, "y": top, "width": PHONE["width"], "height": 1400})


def test_partners_and_opponents_fit_a_phone_without_javascript(no_script_phone, busy_player):
    me, home = busy_player
    page = no_script_phone
    page.goto(f"/players/{me.pk}/")
    section = page.locator("#records")
    assert section.locator(".records-game > table.records").count() == 2 * len(HANDS)
    more = section.locator("#records-spades details.more").last
    assert more.locator("summary").inner_text().endswith("more opponents")
    assert not more.locator("table").is_visible()
    assert section.get_by_text("Best partnership:").count() >= 1
    assert fits_the_screen(page)
    if os.environ.get("SCOREKEEPER_SHOTS"):
        shoot(page, "player-records.png")
    # The longer lists open with a tap on their summary, which needs no script either.
    more.locator("summary").click()
    assert more.locator("table").is_visible()
    assert fits_the_screen(page)
    # Choose a league and a game with the plain form: the page comes back with just that.
    page.locator("#records-league").select_option(label=home.name)
    page.locator("#records-type").select_option(label="Smudge")
    page.locator("#records").get_by_role("button", name="Show").click()
    page.wait_for_url(f"**/players/{me.pk}/?league={home.slug}&type=smudge#records")
    assert section.locator(".records-game").count() == 1
    assert section.locator("#records-smudge h3").inner_text().startswith("Smudge · won 3 of 4 in ")
    assert fits_the_screen(page)
    if os.environ.get("SCOREKEEPER_SHOTS"):
        shoot(page, "player-records-smudge.png")
    # A partner is a tap away.
    first = section.locator("table.records").first.locator("tbody a").first
    name = first.inner_text()
    first.click()
    page.get_by_role("heading", level=1, name=name).wait_for()

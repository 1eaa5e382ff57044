"""League tables on a phone (390 x 844): no sideways scrolling, however long the names or the table."""

from __future__ import annotations

import os
import random
import re

import pytest
from django.db import transaction

from games.services import game_start, hand_record, match_start, player_create
from games.standings.services import league_standings_recompute

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Maximiliana Featherstonehaugh", "Bartholomew Oyelaran-Smith", "Ann", "Józefina Wiśniewska", "Li",
         "Christopher-James O'Donoghue", "Siobhán Ní Bhriain", "Dan", "Alexandrina Montgomery-Walsh", "Ben"]
HANDS = {
    "spades": {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}},
    "smudge": {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": False},
    "thieving_stink": {"face_cards": {"NS": 10, "EW": 6}, "trump_stack": {"holder": "N", "size": 4}},
    "trumps": {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7},
}
TARGETS = {"spades": 100, "smudge": 4, "thieving_stink": 100, "trumps": 5}


@pytest.fixture
def long_tables(league, owner):
    # In one transaction: the standings updates queued by each finished game run after it, the first folding
    # in every game and the rest finding nothing new, instead of one fold a game.
    rng = random.Random(4)
    with transaction.atomic():
        people = [player_create(name=f"{rng.choice(NAMES)} {n}", by=owner, league=league) for n in range(24)]
        for game_type in HANDS:
            for _ in range(14):
                seats = dict(zip("NESW", (person.pk for person in rng.sample(people, 4)), strict=True))
                game = game_start(game_type=game_type, seats=seats, by=owner, league=league,
                                  options={"target": TARGETS[game_type]})
                for _ in range(2 if game_type == "spades" else 1):
                    hand_record(game=game, record=HANDS[game_type], by=owner)
        seats = dict(zip("NESW", (person.pk for person in people[:4]), strict=True))
        match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
        for _ in range(3):
            hand_record(game=match.games.order_by("-match_game_number").first(), record=HANDS["trumps"], by=owner)
    league_standings_recompute(league_id=league.pk)
    return league


def fits_the_screen(page) -> bool:
    # A phone zooms a page that is too wide out to fit it, so the page's width is compared with the phone's.
    return page.evaluate(f"document.documentElement.scrollWidth <= {PHONE['width']}")


@pytest.mark.parametrize("game_type", list(HANDS))
def test_the_league_page_and_whole_tables_fit_a_phone(phone, long_tables, game_type, tmp_path):
    phone.goto(f"/leagues/{long_tables.slug}/?type={game_type}")
    assert phone.locator("#players-table tbody tr").count() == 10
    assert fits_the_screen(phone)
    more = phone.get_by_role("link", name=re.compile(r"^All \d+ players$"))
    count = int(more.inner_text().split()[1])
    assert count > 10
    more.click()
    phone.get_by_text(f"1–{count} of {count}").wait_for()
    assert phone.locator("#players-table tbody tr").count() == count
    assert fits_the_screen(phone)
    phone.goto(f"/leagues/{long_tables.slug}/standings/{game_type}/partnerships/?sort=rate")
    assert phone.locator("#partnerships-table tbody tr").count() > 10
    assert fits_the_screen(phone)
    if os.environ.get("SCOREKEEPER_SHOTS"):  # for a person to look at: SCOREKEEPER_SHOTS=/some/folder
        phone.goto(f"/leagues/{long_tables.slug}/?type={game_type}")
        phone.screenshot(path=f"{os.environ['SCOREKEEPER_SHOTS']}/league-{game_type}.png", full_page=True)

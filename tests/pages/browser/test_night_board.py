"""A club night's room board on a TV (1920 x 1080): ten tables and the standings on one screen, a hand recorded at a
table showing on it within three seconds without a reload; and the pictures of it and of the result sheet."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import hand_record, night_check_in, night_round_start, night_start, player_create

from .conftest import shoot, sign_in
from .test_accessibility import axe_source, violations  # noqa: F401 - axe_source is a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TV = {"width": 1920, "height": 1080}
# Three names too long for their place: the board cuts them short with an ellipsis, never on a second line.
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Olu",
         "Pat", "Bartholomew Featherstonehaugh", "Ros", "Sam", "Tom", "Uma", "Vic", "Wes", "Xia", "Yan", "Zoe",
         "Abe", "Bea", "Maximiliana Oyelaran-Whitcombe", "Dot", "Eli", "Flo", "Gil", "Hen", "Ivy", "Jed", "Kay",
         "Lev", "Mo", "Nia", "Christopher Vandenberghe")
# Spades hands: NS make theirs and EW are set, the other way round, and both make theirs.
HANDS = (
    {"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}},
    {"bids": {"N": 4, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}},
    {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}},
)


@pytest.fixture
def tv(browser, live_server):
    context = browser.new_context(viewport=TV, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def full_night(league, owner):
    """41 players at a night of four-hand rounds: round 1 played out, round 2 under way at its ten tables (one
    player sitting out each round)."""
    night = night_start(league=league, by=owner, game_type="spades", round_end="hands", hands=4, rounds=4,
                        name="Thursday club night")
    for name in NAMES:
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=league))
    first = night_round_start(night=night, by=owner)
    for table in first.tables.select_related("game"):
        game = table.game
        for number in range(4):
            game = hand_record(game=game, record=HANDS[(number + table.number) % 3], by=owner).game
    second = night_round_start(night=night, by=owner)
    for table in second.tables.select_related("game"):
        game = table.game
        for number in range(table.number % 4):
            game = hand_record(game=game, record=HANDS[(number * table.number) % 3], by=owner).game
    return night


def test_the_board_shows_ten_tables_on_one_screen_and_a_hand_within_three_seconds(tv, full_night, owner):
    tv.goto(f"/nights/{full_night.pk}/board/")
    tables = tv.get_by_role("article")
    expect(tables).to_have_count(10)
    expect(tv.get_by_role("heading", name="Standings")).to_be_visible()
    # The whole room on the TV without scrolling: every table and every line of the standings.
    assert tv.evaluate("document.documentElement.scrollHeight") <= TV["height"]
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    assert tv.evaluate("""Array.from(document.querySelectorAll('#room-standings table'))
                          .every((table) => table.getBoundingClientRect().right <= innerWidth)""")
    expect(tv.get_by_role("row", name=re.compile("Christopher Vandenberghe"))).to_be_in_viewport()
    shoot(tv, "night-board", full_page=False)

    table = tv.locator("#room-table-4")
    expect(table).to_contain_text("0 of 4 hands played")
    game = Game.objects.get(night_table__round__night=full_night, night_table__round__number=2,
                            night_table__number=4)
    tv.evaluate("window.notReloaded = true")
    hand_record(game=game, record=HANDS[0], by=owner)  # the table's scorekeeper, on their phone
    expect(table).to_contain_text("1 of 4 hands played", timeout=3_000)
    expect(table).to_contain_text("61")
    assert tv.evaluate("window.notReloaded") is True


def test_the_result_sheet_prints_the_standings_and_every_round(tv, full_night):
    tv.goto(f"/nights/{full_night.pk}/results/")
    expect(tv.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(tv.get_by_role("table").first.get_by_role("row")).to_have_count(1 + len(NAMES))
    # As printed: on a page's width, without the site's header.
    tv.set_viewport_size({"width": 900, "height": 1200})
    tv.emulate_media(media="print")
    expect(tv.locator("header.site")).to_be_hidden()
    shoot(tv, "night-results")


def test_the_room_pages_have_no_axe_violation(tv, full_night, axe_source):  # noqa: F811 - the fixture
    sign_in(tv, "owner")
    found = {}
    for path in (f"/nights/{full_night.pk}/board/", f"/nights/{full_night.pk}/results/",
                 f"/nights/{full_night.pk}/cards/"):
        tv.goto(path)
        if problems := violations(tv, axe_source):
            found[path] = problems
    assert found == {}


def test_the_table_cards_print_one_table_a_page(tv, full_night):
    sign_in(tv, "owner")
    tv.goto(f"/nights/{full_night.pk}/cards/")
    expect(tv.get_by_role("heading", name=re.compile(r"^Table \d+$"))).to_have_count(10)
    printed = tv.pdf(format="A4")
    tv.set_viewport_size({"width": 794, "height": 1123})
    tv.emulate_media(media="print")
    shoot(tv, "night-cards", full_page=False)
    assert len(re.findall(rb"/Type\s*/Page\b", printed)) == 10

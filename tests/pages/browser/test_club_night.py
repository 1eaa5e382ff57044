"""A club night run from phones: the organiser starts a Spades night of three rounds of two hands from the league
page and directs it from their phone; nine players check in (one by scanning the night's QR on her own phone, whose
guide card then follows the night by itself); three scorekeepers' phones enter the hands at the tables; a late
arrival and two more come before round 2, so rounds 2 and 3 fill three tables; a substitute takes a seat in
round 3. A TV shows the room board all along. The night's standings come out as the recorded hands say, on the
organiser's phone and on the board.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Hand, Night, NightPlayer, NightTable
from tests.conftest import join

from .conftest import PHONE, pick, record, shoot, sign_in
from .test_accessibility import axe_source, violations  # noqa: F401 - axe_source is a fixture
from .test_whole_games import spades_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOM = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Max")
FIRST_NINE = ROOM[:9]
MINUS = "\u2212"
TV = {"width": 1920, "height": 1080}

# Spades hands, every bid 3 (bids N E S W, tricks N E S W): both sides make theirs, one with a bag; or NS bid 7
# and are set.
NS_BAG = (["3", "3", "3", "3"], ["4", "3", "3", "3"])  # NS 61, EW 60
EW_BAG = (["3", "3", "3", "3"], ["3", "4", "3", "3"])  # NS 60, EW 61
NS_SET = (["4", "3", "3", "3"], ["3", "4", "3", "3"])  # NS -70, EW 61
# Each round's tables, each table's two hands: wins, a draw (121 all), a set side's negative total.
PLAN = {
    1: {1: (NS_BAG, NS_BAG), 2: (NS_BAG, EW_BAG)},
    2: {1: (NS_SET, EW_BAG), 2: (EW_BAG, EW_BAG), 3: (NS_BAG, NS_BAG)},
    3: {1: (NS_BAG, NS_SET), 2: (EW_BAG, NS_BAG), 3: (NS_SET, NS_SET)},
}


@pytest.fixture
def club(league, owner, make_user):
    """The league's players, and three scorekeepers."""
    from games.services import player_create

    for name in ROOM:
        player_create(name=name, by=owner, league=league)
    for username in ("sk1", "sk2", "sk3"):
        join(league, make_user(username), "scorekeeper", owner)
    return league


def another_phone(browser, live_server, contexts):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  base_url=live_server.url)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def night_page(night_id: int) -> str:
    return f"/nights/{night_id}/"


def play_table(keeper, night_id: int, round_number: int, table: int, hands, *, between=None) -> None:
    """A scorekeeper opens their table's game from the night page and enters its hands."""
    keeper.goto(night_page(night_id))
    expect(keeper.locator("#tables-title")).to_have_text(re.compile(rf"^Round {round_number}"))
    keeper.get_by_role("link", name=f"Table {table}'s game").click()
    for number, (bids, tricks) in enumerate(hands, start=1):
        spades_hand(keeper, bids, tricks)
        record(keeper, number)
        if number == 1 and between is not None:
            between()


def expected_standings(night: Night) -> list[tuple[str, str, str]]:
    """Each player's wins (a draw half) and points, ranked by wins then points then check-in order, worked out
    here from the hands recorded at each table and who sat there when its game ended."""
    order = list(NightPlayer.objects.filter(night=night).order_by("order").values_list("player__name", flat=True))
    wins = dict.fromkeys(order, 0.0)
    points = dict.fromkeys(order, 0)
    for table in NightTable.objects.filter(round__night=night).select_related(
            "game__north", "game__east", "game__south", "game__west"):
        game = table.game
        totals = {"NS": 0, "EW": 0}
        for hand in Hand.objects.filter(game=game):
            for side in totals:
                totals[side] += hand.delta[side]
        assert game.hand_count == 2 and game.status == Game.Status.FINISHED
        for side, seats in (("NS", (game.north, game.south)), ("EW", (game.east, game.west))):
            other = totals["EW" if side == "NS" else "NS"]
            for player in seats:
                wins[player.name] += 1 if totals[side] > other else 0.5 if totals[side] == other else 0
                points[player.name] += totals[side]
    ranked = sorted(order, key=lambda name: (-wins[name], -points[name], order.index(name)))

    def words(value: float) -> str:
        whole, half = int(value), value != int(value)
        return f"{whole or ''}½" if half else str(whole)

    return [(name, words(wins[name]), f"{MINUS}{-points[name]}" if points[name] < 0 else str(points[name]))
            for name in ranked]


def accessible(page, axe_source) -> None:  # noqa: F811 - the fixture
    assert violations(page, axe_source) == [], page.url


def test_an_organiser_runs_a_club_night_from_a_phone(phone, browser, live_server, club, axe_source):  # noqa: F811
    contexts = []
    try:
        run_the_night(phone, browser, live_server, club, contexts, lambda page: accessible(page, axe_source))
    finally:
        for context in contexts:
            context.close()


def run_the_night(organiser, browser, live_server, league, contexts, check_accessible):
    sign_in(organiser, "owner")
    organiser.goto(f"/leagues/{league.slug}/")
    organiser.get_by_role("link", name="Club night").click()
    organiser.locator(".game-switch").get_by_role("link", name="Spades").click()
    pick(organiser, "round_end", "After a number of hands")
    organiser.get_by_label("Hands a round").fill("2")
    organiser.get_by_label("Rounds").fill("3")
    pick(organiser, "movement", "Individual: partners change every round")
    organiser.get_by_label("Name (optional)").fill("Thursday night")
    shoot(organiser, "night-new-phone", full_page=False)
    organiser.get_by_role("button", name="Start the Spades night").click()
    expect(organiser.get_by_role("heading", name="Thursday night")).to_be_visible()
    night = Night.objects.get()

    # Eight names tapped by the organiser; Ida checks herself in with the night's QR on her own phone.
    for name in FIRST_NINE[:8]:
        organiser.get_by_role("button", name=f"Check in {name}").click()
        expect(organiser.get_by_text(f"{name} is checked in.")).to_be_visible()
    qr = organiser.get_by_role("img", name="QR code: check in to Thursday night")
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("image => image.naturalWidth") > 0
    link = organiser.get_by_role("link", name="Check-in link").get_attribute("href")
    shoot(organiser, "night-check-in-director-phone")
    check_accessible(organiser)

    # The room's TV shows the board from the start.
    board = organiser.get_by_role("link", name="Room board (for a TV)").get_attribute("href")
    tv_context = browser.new_context(viewport=TV, base_url=live_server.url)
    contexts.append(tv_context)
    tv = tv_context.new_page()
    tv.set_default_timeout(15_000)
    tv.goto(board)
    expect(tv.locator(".room-round")).to_contain_text("Checking in: 8 here")

    ida = another_phone(browser, live_server, contexts)
    ida.goto(link)
    expect(ida.get_by_role("heading", name="Check in: Thursday night")).to_be_visible()
    shoot(ida, "night-check-in-phone", full_page=False)
    check_accessible(ida)
    ida.get_by_role("button", name="Ida", exact=True).click()
    expect(ida.locator("[data-guide]")).to_have_text("The first round has not started yet")
    assert NightPlayer.objects.filter(night=night, player__name="Ida", checked_in_by=None).exists()

    # The organiser's page shows her checked in by itself.
    expect(organiser.get_by_role("heading", name="Here (9)")).to_be_visible()
    expect(organiser.get_by_role("button", name="Check in Ida")).to_have_count(0)

    # Round 1: two tables in check-in order, Ida sits out: her phone says so by itself.
    expect(organiser.locator("[data-next-step]")).to_have_text("9 checked in: start round 1 when everyone is here")
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_text("Round 1 has started: 2 tables.")).to_be_visible()
    expect(ida.locator("[data-guide]")).to_have_text("Round 1 · you sit this round out")
    expect(organiser.get_by_role("button", name="Start round 2")).to_be_disabled()
    shoot(organiser, "night-round-director-phone", full_page=False)
    check_accessible(organiser)
    check_accessible(ida)
    expect(tv.locator(".room-round")).to_contain_text("Round 1 of 3")

    keepers = []
    for username in ("sk1", "sk2", "sk3"):
        keeper = another_phone(browser, live_server, contexts)
        sign_in(keeper, username)
        keepers.append(keeper)

    # A late arrival while round 1 is played: Jo (tapped); Kim, and Lou typed as a new player, before round 2.
    organiser.get_by_role("button", name="Check in Jo").click()
    expect(organiser.get_by_text("Jo is checked in.")).to_be_visible()
    for table, hands in PLAN[1].items():
        play_table(keepers[table - 1], night.pk, 1, table, hands)
    # The board follows the tables by itself: 61 + 61 at table 1, 121 all at table 2.
    expect(tv.locator('[data-total="Table 1 NS"]')).to_have_text("122")
    expect(tv.locator('[data-total="Table 2 EW"]')).to_have_text("121")
    organiser.get_by_role("button", name="Check in Kim").click()
    organiser.get_by_label("Someone new").fill("Lou")
    organiser.get_by_role("button", name="Add and check in").click()
    expect(organiser.get_by_text("Lou is checked in.")).to_be_visible()

    # Round 1 is done: twelve players fill three tables.
    expect(organiser.get_by_role("button", name="Start round 2")).to_be_enabled()
    organiser.get_by_role("button", name="Start round 2").click()
    expect(organiser.get_by_text("Round 2 has started: 3 tables.")).to_be_visible()
    expect(ida.locator("[data-guide]")).to_have_text(
        re.compile(r"^Round 2 · table [123] · you sit [NESW] · partner \w+ · against \w+ & \w+$"))
    shoot(ida, "night-guide-card-phone", full_page=False)
    ida_table = int(re.search(r"table (\d)", ida.locator("[data-guide]").inner_text()).group(1))
    ida.get_by_role("link", name=f"Open table {ida_table}'s game").click()
    expect(ida).to_have_url(re.compile(r"/games/\d+/(follow/)?$"))
    for table, hands in PLAN[2].items():
        play_table(keepers[table - 1], night.pk, 2, table, hands)

    # Round 3: after table 1's first hand its North leaves and Max takes the seat.
    expect(organiser.get_by_role("button", name="Start round 3")).to_be_enabled()
    organiser.get_by_role("button", name="Start round 3").click()
    expect(organiser.get_by_text("Round 3 has started: 3 tables.")).to_be_visible()

    def substitute():
        leaving = NightTable.objects.get(round__night=night, round__number=3, number=1).game.north.name
        organiser.goto(night_page(night.pk))
        organiser.locator("summary", has_text="Substitute a player").click()
        organiser.get_by_label("Who leaves").select_option(label=leaving)
        organiser.get_by_label("Who takes their seat").select_option(label="Max")
        shoot(organiser, "night-substitute-phone", full_page=False)
        organiser.get_by_role("button", name="Substitute", exact=True).click()
        expect(organiser.get_by_text(f"Max takes {leaving}'s seat from the next hand.")).to_be_visible()

    for table, hands in PLAN[3].items():
        play_table(keepers[table - 1], night.pk, 3, table, hands, between=substitute if table == 1 else None)
    assert NightTable.objects.get(round__night=night, round__number=3, number=1).game.north.name == "Max"

    # The night's standings, as the hands recorded say; sit-outs read "out", negative points a minus sign.
    organiser.goto(night_page(night.pk))
    expect(organiser.locator("[data-next-step]")).to_have_text("All 3 rounds played: end the night, or play another round")
    organiser.locator("summary", has_text="End the night").click()
    organiser.get_by_role("button", name="End the night").click()
    expect(organiser.get_by_text("The night is over.").first).to_be_visible()
    rows = organiser.locator(".night-standings tbody tr")
    shown = [(row.locator("th").inner_text(), row.locator("[data-wins]").inner_text(),
              row.locator("[data-points]").inner_text()) for row in rows.all()]
    assert shown == expected_standings(night)
    ida_row = organiser.locator(".night-standings tbody tr", has=organiser.locator("th", has_text=re.compile("^Ida$")))
    expect(ida_row.locator("td").nth(1).locator("[aria-hidden=true]")).to_have_text("out")
    assert any(points.startswith(MINUS) for _, _, points in shown)
    organiser.locator("#standings").scroll_into_view_if_needed()
    shoot(organiser, "night-standings-phone")
    check_accessible(organiser)
    # The board, updated by itself, ranks them the same.
    expect(tv.locator(".room-round")).to_contain_text("The night is over")
    assert [(row.locator("th").inner_text(), row.locator("td.num").nth(0).inner_text(),
             row.locator("td.num").nth(1).inner_text()) for row in tv.locator(".room-lines-table tbody tr").all()] == shown


def test_the_director_runs_a_night_without_javascript(no_script_phone, club):
    """Every control of the director's page is a form that posts and comes back: no script needed, a refusal shown
    beside its field, the confirmation to move on a fold that opens without script."""
    from games.services import hand_record

    organiser = no_script_phone
    sign_in(organiser, "owner")
    organiser.goto(f"/leagues/{club.slug}/nights/new/?type=spades")
    pick(organiser, "round_end", "After a number of hands")
    organiser.get_by_label("Hands a round").fill("0")
    organiser.get_by_role("button", name="Start the Spades night").click()
    expect(organiser.locator(".field.invalid", has=organiser.get_by_label("Hands a round"))).to_contain_text(
        "a round's hands must be a whole number from 1 to 50")
    organiser.get_by_label("Hands a round").fill("1")
    organiser.get_by_role("button", name="Start the Spades night").click()
    night = Night.objects.get()
    for name in ROOM[:8]:
        organiser.get_by_role("button", name=f"Check in {name}").click()
    expect(organiser.get_by_role("heading", name="Here (8)")).to_be_visible()
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_text("Round 1 has started: 2 tables.")).to_be_visible()

    organiser.locator("summary", has_text="Move a table").click()
    organiser.get_by_label("Table", exact=True).select_option(label="Table 2")
    organiser.get_by_label("Moves to number").fill("100")
    organiser.get_by_role("button", name="Move the table").click()
    expect(organiser.locator(".field.invalid", has=organiser.get_by_label("Moves to number"))).to_contain_text(
        "a table's number must be a whole number from 1 to 99")
    organiser.get_by_label("Moves to number").fill("4")
    organiser.get_by_role("button", name="Move the table").click()
    expect(organiser.get_by_text("Table 2 is table 4 now.")).to_be_visible()

    game = NightTable.objects.get(round__night=night, number=1).game
    hand_record(game=game, record={"bids": {"N": 3, "E": 3, "S": 3, "W": 3},
                                   "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}, by=game.created_by)
    organiser.reload()
    expect(organiser.get_by_role("button", name="Start round 2")).to_be_disabled()
    organiser.locator("summary", has_text="Move on without waiting").click()
    expect(organiser.get_by_text("table 4 finishes its game")).to_be_visible()
    organiser.get_by_role("button", name="Yes, start round 2 now").click()
    expect(organiser.get_by_text("Round 2 has started: 2 tables.")).to_be_visible()
    expect(organiser.get_by_text("Round 1, table 4 is still playing (hand 1 of 1).")).to_be_visible()

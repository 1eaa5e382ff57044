"""One hand of each game entered on a phone (390×844): the taps it takes and how far the page scrolls.

The numbers are kept in docs/table.md; this test measures them and fails if the page does worse than
the documented numbers (or if the documented numbers do not match what the page does).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.services import game_start

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[3] / "docs" / "table.md"

# What a scorekeeper taps for a typical hand: (field, chip label); "NEXT" is a step's button.
HANDS = {
    "spades": [("bid_N", "3"), ("bid_E", "4"), ("bid_S", "2"), ("bid_W", "4"), "NEXT",
               ("tricks_N", "3"), ("tricks_E", "5"), ("tricks_S", "2")],
    "smudge": [("bidder", "E · Ben"), ("bid", "3"), ("high", "EW · Ben & Dan"), ("low", "NS · Ann & Cat"),
               ("jack", "EW · Ben & Dan"), ("game", "EW · Ben & Dan")],
    "trumps": [("declarer", "N · Ann"), ("bid", "7"), ("trump", "♥ Hearts"), ("tricks", "8")],
    "thieving_stink": [("face_NS", "9"), ("face_EW", "5"), ("stack_size", "6"), ("stack_holder", "W · Dan")],
}


def documented() -> dict[str, tuple[int, int]]:
    """The table in docs/table.md: game -> (taps, pixels scrolled)."""
    rows = re.findall(r"^\| (\w[\w ]*?) \| (\d+) \| (\d+) px \|", DOCS.read_text(), re.MULTILINE)
    return {name: (int(taps), int(scrolled)) for name, taps, scrolled in rows}


@pytest.mark.parametrize("game_type", list(HANDS))
def test_one_hand_takes_the_documented_taps_and_scrolling(phone, league, owner, seats, game_type):
    game = game_start(game_type=game_type, seats=seats, by=owner, league=league)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#entry-title")).to_contain_text("Hand 1")
    record = phone.get_by_role("button", name="Record hand 1")
    taps, scrolled = 0, 0
    for step in [*HANDS[game_type], "RECORD"]:
        before = phone.evaluate("window.scrollY")
        if step == "NEXT":
            phone.locator("button.step-next").click()
        elif step == "RECORD":
            expect(record).to_be_in_viewport()  # Record sits at the bottom of the screen, within thumb reach
            record.click()
        else:
            field, label = step
            phone.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()
        taps += 1
        scrolled += max(0, phone.evaluate("window.scrollY") - before)
    expect(phone.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    print(f"| {game.game_type_name} | {taps} | {scrolled} px |")
    documented_taps, documented_scroll = documented()[game.game_type_name]
    assert taps == documented_taps, f"{taps} taps; docs/table.md says {documented_taps}"
    assert scrolled <= documented_scroll, f"{scrolled} px scrolled; docs/table.md says {documented_scroll} px"
    if game_type == "spades":
        assert taps <= 9 and scrolled == 0

"""Every number in words on a phone (390×844): one tap on a hand's score reads it in words, and what each
side needs is under the totals, with the page's script and without it."""

import pytest
from playwright.sync_api import expect

from games.services import hand_record

from .conftest import shoot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = [
    {"bids": {"N": 2, "E": 3, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 3, "S": 3, "W": 4}},
    {"bids": {"N": "nil", "E": 4, "S": 4, "W": 4}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}},
    {"bids": {"N": 2, "E": 4, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 4, "S": 2, "W": 4}},
]


@pytest.mark.parametrize("javascript", [True, False])
def test_one_tap_on_a_hands_score_reads_it_in_words(request, javascript, start_game, owner):
    phone = request.getfixturevalue("phone" if javascript else "no_script_phone")
    game = start_game("spades")
    for record in HANDS:
        hand_record(game=game, record=record, by=owner)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    # The scorekeeper's phone keeps the entry in reach: the target and the needs on one line under the
    # totals, all of it one tap away.
    line = phone.locator("details.needs-more summary")
    expect(line).to_be_in_viewport()
    expect(line).to_contain_text("Playing to 500 · NS need 426 to reach 500;")
    assert line.bounding_box()["height"] < 30
    line.tap()
    expect(phone.locator("#needs li")).to_have_text(
        ["NS need 426 to reach 500", "EW need 270 to reach 500", "NS are 6 bags from a penalty"])
    expect(phone.locator("#needs")).to_be_in_viewport()
    if javascript:
        shoot(phone, "table-needs-phone", full_page=False)
    line.tap()

    words = phone.locator("#explain-3 .explanation")
    expect(words).to_be_hidden()
    phone.locator("#hand-3").scroll_into_view_if_needed()
    phone.locator("#explain-3 summary").tap()
    expect(words).to_be_visible()
    expect(words.locator("li")).to_have_text(["NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 4 in all",
                                              "EW bid 8 and took 8: 80"])
    box = phone.locator("#explain-3 summary").bounding_box()
    assert box is not None and box["height"] >= 40  # a thumb's target
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    phone.locator("#explain-2 summary").tap()
    expect(phone.locator("#explain-2 .explanation li").first).to_have_text(
        "NS bid 4 and took 5: 40 + 1 overtrick − 50 for Ann's failed nil = −9; 1 bag, 3 in all")
    if javascript:
        phone.locator("#explain-3").scroll_into_view_if_needed()
        shoot(phone, "table-explained-phone", full_page=False)


def test_a_follower_reads_what_each_side_needs_under_the_totals(phone, start_game, owner, member):
    game = start_game("smudge")
    hand_record(game=game, record={"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "NS", "game": "EW",
                                   "all_tricks": False}, by=owner)
    sign_in(phone, "member")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#needs")).to_have_text(
        "NS need 24 more and must make a bid to win; EW need 19 more and must make a bid to win")
    expect(phone.locator("#needs")).to_be_in_viewport()
    phone.locator("#explain-1 summary").tap()
    expect(phone.locator("#explain-1 .explanation li")).to_have_text([
        "NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW", "NS made 2 of 3: set back 3",
        "EW score 2"])

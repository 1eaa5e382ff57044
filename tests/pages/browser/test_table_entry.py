"""The table's entry at phone size (390×844), hand after hand: every choice in reach above the Record bar,
Spades' fourth-trick fill, the focus after each step, the end of a game wherever its last hand was
recorded, and a hand another phone recorded first."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Hand
from games.services import game_start, hand_correct, hand_record, match_start

from .conftest import sign_in
from .network import DOWN, UP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A typical hand of each game, as tapped: (field, chip label); "NEXT" is the step's button.
HANDS = {
    "spades": [("bid_N", "3"), ("bid_E", "4"), ("bid_S", "2"), ("bid_W", "4"), "NEXT",
               ("tricks_N", "3"), ("tricks_E", "5"), ("tricks_S", "2")],
    "smudge": [("bidder", "E · Ben"), ("bid", "3"), ("high", "EW · Ben & Dan"), ("low", "NS · Ann & Cat"),
               ("jack", "EW · Ben & Dan"), ("game", "EW · Ben & Dan")],
    "trumps": [("declarer", "N · Ann"), ("bid", "7"), ("trump", "♥ Hearts"), ("tricks", "8")],
    "thieving_stink": [("face_NS", "9"), ("face_EW", "5"), ("stack_size", "6"), ("stack_holder", "W · Dan")],
}
TRUMPS_MADE = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8}
SMUDGE_MADE = {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS", "all_tricks": False}


def tap(page, field: str, label: str) -> None:
    page.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()


def enter(page, game_type: str, *, until: str | None = None, after: str | None = None) -> None:
    """Tap a typical hand of ``game_type`` without Record: all of it, or up to the step ``until``, or what
    comes after the step ``after``."""
    steps = HANDS[game_type]
    if after:
        steps = steps[steps.index(after) + 1:]
    for step in steps:
        if step == until:
            return
        if step == "NEXT":
            page.locator("button.step-next").click()
        else:
            tap(page, *step)


def focused(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.tagName")


# --- every choice in reach, on every hand ---------------------------------------------------------------

# Each chip of the step on the screen, and Record (or Next): fully on the screen and not under the bar.
OBSTRUCTED = """() => {
  const bar = document.querySelector(".record-bar").getBoundingClientRect();
  const action = [...document.querySelectorAll(".record-bar button")].find((button) => !button.hidden);
  const out = [];
  const header = document.querySelector("header.site").getBoundingClientRect();
  if (document.documentElement.scrollWidth > innerWidth || header.right > innerWidth) { out.push("wider than the screen"); }
  const actionBox = action.getBoundingClientRect();
  if (actionBox.top < 0 || actionBox.bottom > innerHeight) { out.push(action.textContent + " " + actionBox.bottom); }
  for (const chip of document.querySelectorAll("#entry fieldset.chips label.chip")) {
    if (chip.closest("[hidden]")) { continue; }
    const box = chip.getBoundingClientRect();
    if (box.top < 0 || box.bottom > bar.top + 0.5) {
      out.push(chip.closest("fieldset").dataset.field + " " + chip.textContent + ": " +
               Math.round(box.bottom - bar.top) + " px under the bar");
    }
  }
  return out;
}"""


@pytest.mark.parametrize("game_type", list(HANDS))
def test_every_choice_of_hand_2_and_record_are_in_reach_without_scrolling(phone, league, owner, seats, game_type):
    game = game_start(game_type=game_type, seats=seats, by=owner, league=league)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    for number in (1, 2, 3):
        expect(phone.locator("#entry-title")).to_contain_text(f"Hand {number}")
        assert phone.evaluate("window.scrollY") == 0
        assert phone.evaluate(OBSTRUCTED) == [], f"hand {number}"
        if game_type == "spades":
            enter(phone, game_type, until="NEXT")
            phone.locator("button.step-next").click()
            assert phone.evaluate("window.scrollY") == 0
            assert phone.evaluate(OBSTRUCTED) == [], f"hand {number}, tricks"
            enter(phone, game_type, after="NEXT")
        else:
            enter(phone, game_type)
        phone.get_by_role("button", name=f"Record hand {number}").click()
        expect(phone.locator("#outbox-status")).to_contain_text(f"Hand {number} recorded", timeout=20_000)


# --- Spades' fourth-trick fill -------------------------------------------------------------------------


def test_the_filled_in_seat_follows_every_change_by_tap_or_arrow_key_until_it_is_picked(phone, league, owner,
                                                                                      seats):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    enter(phone, "spades", until="NEXT")
    phone.locator("button.step-next").click()
    west = phone.locator("#id_tricks_W_group input:checked")
    count = phone.locator(".sum-count")
    for seat, took in (("N", "5"), ("E", "3"), ("S", "3")):
        tap(phone, f"tricks_{seat}", took)
    expect(west).to_have_value("2")
    tap(phone, "tricks_S", "4")
    expect(west).to_have_value("1")
    expect(count).to_have_text("13 of 13")

    south = phone.locator("#id_tricks_S_group input:checked")
    south.focus()
    phone.keyboard.press("ArrowRight")  # S 5
    expect(west).to_have_value("0")
    phone.keyboard.press("ArrowRight")  # S 6: the others make 14, no number fits West
    expect(west).to_have_count(0)
    expect(count).to_have_text("14 of 13")
    for _ in range(3):
        phone.keyboard.press("ArrowLeft")  # S 5, 4, 3
    expect(phone.locator("#id_tricks_S_group input:checked")).to_have_value("3")
    expect(west).to_have_value("2")
    expect(count).to_have_text("13 of 13")

    tap(phone, "tricks_W", "3")  # the scorekeeper's own pick: from now on West is theirs
    tap(phone, "tricks_S", "4")
    expect(west).to_have_value("3")
    expect(count).to_have_text("15 of 13 — too many")
    tap(phone, "tricks_S", "2")
    phone.get_by_role("button", name="Record hand 1").click()
    expect(phone.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    assert Hand.objects.get(game=game).record["tricks"] == {"N": 5, "E": 3, "S": 2, "W": 3}


# --- the focus after each step -------------------------------------------------------------------------


def test_the_focus_lands_on_the_first_choice_of_each_new_step(phone, league, owner, seats):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    enter(phone, "spades", until="NEXT")
    phone.get_by_role("button", name="Next: Tricks").click()
    assert focused(phone) == "id_tricks_N_0"
    phone.get_by_role("button", name="Back").click()
    assert focused(phone) == phone.locator("#id_bid_N_group input:checked").get_attribute("id")
    phone.get_by_role("button", name="Next: Tricks").click()
    enter(phone, "spades", after="NEXT")
    phone.get_by_role("button", name="Change").click()  # the bids again, from their summary line
    assert focused(phone) == phone.locator("#id_bid_N_group input:checked").get_attribute("id")
    phone.get_by_role("button", name="Next: Tricks").click()
    assert focused(phone) == phone.locator("#id_tricks_N_group input:checked").get_attribute("id")
    phone.get_by_role("button", name="Record hand 1").click()
    expect(phone.locator("#outbox-status")).to_contain_text("Hand 1 recorded")
    assert focused(phone) == "id_bid_N_0"  # the next hand's first choice, not the page


# --- the end of a game ---------------------------------------------------------------------------------


def expect_game_over(page, winners: str) -> None:
    expect(page.get_by_role("heading", name=f"{winners} win!")).to_be_visible(timeout=15_000)
    expect(page.locator("#entry")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Record hand"))).to_have_count(0)
    expect(page.get_by_text(re.compile(r"^Hand \d+ · "))).to_have_count(0)


def test_a_win_recorded_here_puts_the_game_over_card_in_the_entrys_place(phone, league, owner, seats):
    game = game_start(game_type="smudge", seats=seats, by=owner, league=league, options={"target": 7})
    hand_record(game=game, record=SMUDGE_MADE, by=owner)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    for field, label in (("bidder", "S · Cat"), ("bid", "2"), ("high", "NS · Ann & Cat"),
                         ("low", "NS · Ann & Cat"), ("jack", "NS · Ann & Cat"), ("game", "NS · Ann & Cat")):
        tap(phone, field, label)
    phone.get_by_role("button", name="Record hand 2").click()
    expect_game_over(phone, "Ann & Cat")
    card = phone.locator("#game-over")
    expect(card).to_be_focused()
    expect(card).to_be_in_viewport()
    expect(card.get_by_role("link", name="Rematch")).to_be_visible()
    phone.reload()  # the draft of a hand that cannot come is gone too
    expect_game_over(phone, "Ann & Cat")


def test_a_match_game_won_here_offers_the_next_game_with_the_match_standing(phone, league, owner, seats):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    first = match.games.get()
    sign_in(phone, "owner")
    phone.goto(f"/games/{first.pk}/")
    enter(phone, "trumps")
    phone.get_by_role("button", name="Record hand 1").click()
    expect_game_over(phone, "Ann & Cat")
    card = phone.locator("#game-over")
    standing = card.get_by_role("table", name="The match after game 1 of 3")
    expect(standing).to_be_visible()
    expect(standing.get_by_role("row")).to_have_count(5)
    expect(standing.get_by_role("row").nth(1)).to_contain_text(re.compile(r"(Ann|Cat)\s*\d+"))
    card.get_by_role("link", name="Next game").click()
    second = Game.objects.get(match=match, match_game_number=2)
    expect(phone).to_have_url(re.compile(rf"/games/{second.pk}/$"))
    expect(phone.locator("#entry-title")).to_contain_text("Hand 1")


def test_the_last_game_of_a_match_names_the_match_winners_and_offers_a_rematch(phone, league, owner, seats):
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    for number in (1, 2):
        hand_record(game=Game.objects.get(match=match, match_game_number=number), record=TRUMPS_MADE, by=owner)
    last = Game.objects.get(match=match, match_game_number=3)
    sign_in(phone, "owner")
    phone.goto(f"/games/{last.pk}/")
    enter(phone, "trumps")
    phone.get_by_role("button", name="Record hand 1").click()
    card = phone.locator("#game-over")
    expect(card.get_by_role("table", name=re.compile("^Ann wins the match!"))).to_be_visible(timeout=15_000)
    expect(card.get_by_role("link", name="Next game")).to_have_count(0)
    expect(card.get_by_role("link", name="Rematch")).to_be_visible()


def test_a_win_recorded_on_another_phone_ends_the_entry_here(phone, league, owner, seats):
    game = game_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#entry-title")).to_contain_text("Hand 1")
    tap(phone, "declarer", "E · Ben")  # begun here, but the hand was already recorded over there
    hand_record(game=game, record=TRUMPS_MADE, by=owner)
    expect_game_over(phone, "Ann & Cat")
    expect(phone.locator("#game-over")).to_be_focused()


def offline(page, wifi, down: bool) -> None:
    wifi.set(DOWN if down else UP)
    page.context.set_offline(down)


def test_a_win_sent_from_the_outbox_ends_the_entry_when_it_is_recorded(table_phone, wifi, league, owner, seats):
    page = table_phone
    game = game_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 5})
    sign_in(page, "owner")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")
    offline(page, wifi, True)
    enter(page, "trumps")
    page.get_by_role("button", name="Record hand 1").click()
    expect(page.locator(".hand.kept.waiting")).to_have_count(1)
    expect(page.locator("#entry-title")).to_contain_text("Hand 2")  # offline, the phone cannot know yet
    offline(page, wifi, False)
    expect_game_over(page, "Ann & Cat")
    expect(page.locator(".hand.kept")).to_have_count(0)


# --- another phone got there first ---------------------------------------------------------------------


def test_a_hand_another_phone_recorded_first_is_brought_into_view_and_holds_the_entry(table_phone, wifi, league,
                                                                                      owner, seats):
    page = table_phone
    game = game_start(game_type="trumps", seats=seats, by=owner, league=league)
    sign_in(page, "owner")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#entry-title")).to_contain_text("Hand 1")
    offline(page, wifi, True)
    enter(page, "trumps")
    page.get_by_role("button", name="Record hand 1").click()
    hand_record(game=game, record={**TRUMPS_MADE, "declarer": "E"}, by=owner)  # the other phone
    offline(page, wifi, False)
    review = page.locator(".hand.kept.review")
    expect(review).to_contain_text("Another phone recorded hand 1 first", timeout=15_000)
    expect(review).to_be_focused()
    expect(review).to_be_in_viewport()
    # Until the scorekeeper decides, the entry does not guess which hand comes next.
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.get_by_role("button", name=re.compile("^Record hand"))).to_be_hidden()
    # The other phone corrects its hand meanwhile: the page shows it, and the review keeps the focus.
    page.locator("#history-region").evaluate("(region) => { region.dataset.before = 'yes'; }")
    hand_correct(game=game, number=1, record={**TRUMPS_MADE, "declarer": "E", "tricks": 9}, by=owner,
                 reason="one more trick")
    expect(page.locator("#history-region[data-before]")).to_have_count(0, timeout=15_000)
    expect(review).to_be_focused()
    review.get_by_role("button", name="Send as hand 2").click()
    expect(page.locator("#outbox-status")).to_contain_text("Hand 2 recorded")
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("#entry-title")).to_contain_text("Hand 3")
    expect(page.locator("#entry :focus")).to_have_count(1)  # decided: on to the entry's first choice
    assert Game.objects.get(pk=game.pk).hand_count == 2

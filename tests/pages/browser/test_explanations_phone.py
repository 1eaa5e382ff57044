"""Every number in words on a phone (390×844): a tap on a hand's score reads it in words, what each side
needs sits under the totals, and on the scorekeeper's phone every choice of the entry stays above the Record
bar with it; in each game, with the page's script and without it."""

import re

import pytest
from playwright.sync_api import expect

from games.services import hand_record

from .conftest import shoot, sign_in
from .test_table_entry import OBSTRUCTED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPADES = [
    {"bids": {"N": 2, "E": 3, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 3, "S": 3, "W": 4}},
    {"bids": {"N": "nil", "E": 4, "S": 4, "W": 4}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}},
    {"bids": {"N": 2, "E": 4, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 4, "S": 2, "W": 4}},
]

# Per game: the hands played, the last hand's score as its summary shows it and in words, and what each
# side needs after it. Seated: Ann (N), Ben (E), Cat (S), Dan (W).
GAMES = {
    "spades": (SPADES, "NS +41 EW +80",
               ["NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 4 in all", "EW bid 8 and took 8: 80"],
               ["NS need 426 to reach 500", "EW need 270 to reach 500", "NS are 6 bags from a penalty"]),
    "smudge": ([{"bidder": "E", "bid": 2, "high": "EW", "low": "NS", "jack": "EW", "game": None, "all_tricks": False},
                {"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "NS", "game": "EW", "all_tricks": False}],
               "NS −3 EW +2",
               ["NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW", "NS made 2 of 3: set back 3",
                "EW score 2"],
               ["NS need 23 more and must make a bid to win", "EW need 17 more and must make a bid to win"]),
    "trumps": ([{"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 8},
                {"declarer": "W", "bid": 8, "trump": "clubs", "doubled": True, "redoubled": True, "tricks": 9}],
               "NS 0 EW +44",
               ["EW bid 8 clubs (Dan), redoubled, and took 9", "EW score (10 + 1 overtrick) × 4 = 44"],
               ["NS need 44 to reach 50", "EW need 6 to reach 50"]),
    "thieving_stink": ([{"face_cards": {"NS": 9, "EW": 5}, "trump_stack": {"holder": "W", "size": 6}},
                        {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}],
                       "NS +60 EW +105",
                       ["Face cards NS 6, EW 7, trump stack of 7 held by Ben (E)", "NS score 60 for 6 face cards",
                        "EW score 70 for 7 face cards + 35 for the stack of 7 = 105"],
                       ["NS need 350 to reach 500", "EW need 315 to reach 500"]),
}


def played(start_game, owner, game_type):
    hands, score, words, needs = GAMES[game_type]
    game = start_game(game_type)
    for record in hands:
        hand_record(game=game, record=record, by=owner)
    return game, len(hands), score, words, needs


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_tap_on_a_hands_score_reads_it_in_words_and_the_entry_stays_above_the_record_bar(
        phone, start_game, owner, game_type):
    game, last, score, words, needs = played(start_game, owner, game_type)
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")

    # What each side needs shares one line with the target under the totals, and leaves the entry its room.
    line = phone.get_by_text(re.compile(r"^Playing to \d+ · "))
    expect(line).to_have_text(re.compile(r"· " + re.escape("; ".join(needs)) + "$"))
    expect(line).to_be_in_viewport()
    assert line.bounding_box()["height"] < 30
    expect(phone.get_by_role("heading", name=re.compile(rf"^Hand {last + 1} "))).to_be_in_viewport()
    assert phone.evaluate(OBSTRUCTED) == []  # each choice of the step, and its Next or Record, in reach

    # One tap on the last hand's score reads it in words, every clause on a line of its own.
    in_words = phone.get_by_role("list", name=f"Hand {last} in words")
    expect(in_words).to_be_hidden()
    tap_target = phone.get_by_text(f"{score} in words")
    tap_target.scroll_into_view_if_needed()
    box = tap_target.bounding_box()
    assert box is not None and box["height"] >= 40  # a thumb's target
    tap_target.tap()
    expect(in_words.get_by_role("listitem")).to_have_text(words)
    expect(in_words).to_be_in_viewport()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    if game_type == "spades":
        shoot(phone, "table-explained-phone", full_page=False)
    tap_target.tap()
    expect(in_words).to_be_hidden()

    # Back at the top the entry is as it was: every choice above the bar; the whole of the needs one tap away.
    phone.evaluate("window.scrollTo(0, 0)")
    assert phone.evaluate(OBSTRUCTED) == []
    line.tap()
    expect(phone.get_by_role("list", name="What each side needs").get_by_role("listitem")).to_have_text(needs)
    if game_type == "spades":
        shoot(phone, "table-needs-phone", full_page=False)


def test_without_script_a_tap_reads_the_words_all_the_same(no_script_phone, start_game, owner):
    phone = no_script_phone
    game, last, score, words, needs = played(start_game, owner, "spades")
    sign_in(phone, "owner")
    phone.goto(f"/games/{game.pk}/")
    phone.get_by_text(re.compile(r"^Playing to 500 · ")).tap()
    expect(phone.get_by_role("list", name="What each side needs").get_by_role("listitem")).to_have_text(needs)
    phone.get_by_text("NS −9 EW +80 in words").tap()  # hand 2: a failed nil
    expect(phone.get_by_role("list", name="Hand 2 in words").get_by_role("listitem")).to_have_text([
        "NS bid 4 and took 5: 40 + 1 overtrick − 50 for Ann's failed nil = −9; 1 bag, 3 in all",
        "EW bid 8 and took 8: 80"])


def test_a_follower_reads_what_each_side_needs_under_the_totals(phone, start_game, owner, member):
    game, last, score, words, needs = played(start_game, owner, "smudge")
    sign_in(phone, "member")
    phone.goto(f"/games/{game.pk}/")
    line = phone.get_by_text("; ".join(needs), exact=True)
    expect(line).to_be_in_viewport()
    phone.get_by_text(f"{score} in words").tap()
    expect(phone.get_by_role("list", name=f"Hand {last} in words").get_by_role("listitem")).to_have_text(words)


def test_what_a_player_opened_to_read_stays_open_when_the_next_hand_arrives(phone, start_game, owner, member):
    hands, _, words, _ = GAMES["thieving_stink"]
    game = start_game("thieving_stink")
    hand_record(game=game, record=hands[1], by=owner)
    sign_in(phone, "member")
    phone.goto(f"/games/{game.pk}/")
    phone.get_by_text("NS +60 EW +105 in words").tap()
    in_words = phone.get_by_role("list", name="Hand 1 in words")
    expect(in_words.get_by_role("listitem")).to_have_text(words)
    hand_record(game=game, record=hands[0], by=owner)  # recorded on the scorekeeper's phone
    expect(phone.get_by_text("NS +90 EW +80 in words")).to_be_attached(timeout=15_000)
    expect(phone.get_by_text("NS need 350 to reach 500; EW need 315 to reach 500", exact=True)).to_be_visible()
    expect(in_words.get_by_role("listitem")).to_have_text(words)

"""Every phone at the table, at 390×844: the scorekeeper's, a seated player's (signed in, linked to North),
one with only the table's code (sitting East), and the TV board opened with the code. A hand recorded,
corrected or undone shows on all of them within 3 seconds without a reload, and the update moves nothing
the viewer is looking at: not the place they scrolled to, not the focus, not a half-entered hand."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import (
    game_start,
    hand_correct,
    hand_record,
    hand_undo,
    league_create,
    player_create,
    player_link,
)

from .conftest import phone_page, shoot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What every page promises: a change shows within this long of being stored.
WITHIN = 3.0
HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}
CORRECTED = {"face_cards": {"NS": 12, "EW": 1}, "trump_stack": {"holder": "N", "size": 5}}


@pytest.fixture
def table(owner, league, players, member):
    """A casual game (seen only by its table) with the league's players; Ann (North) is the member's player."""
    player_link(league=league, player=players[0], user=member, by=owner)
    return game_start(game_type="thieving_stink", by=owner, options={"target": 100_000},
                      seats={seat: player.pk for seat, player in zip("NESW", players, strict=True)})


@pytest.fixture
def phones(browser, live_server, table, owner, member):
    """Four pages, each in a phone-sized browser context of its own, opened as their owners would."""
    made = []

    def phone():
        pages = phone_page(browser, live_server)
        made.append(pages)
        return next(pages)

    keeper = phone()
    sign_in(keeper, owner.username)
    keeper.goto(f"/games/{table.pk}/")
    keeper.get_by_text("Other phones: the table's code").click()
    link = keeper.locator("#table-link").input_value()
    player = phone()
    sign_in(player, member.username)
    player.goto(link)
    expect(player.locator(".you-sit")).to_have_text("You sit North (Ann): your side is NS.")
    holder = phone()
    holder.goto(link)
    shoot(holder, "follow-seat-phone", full_page=False)
    holder.get_by_role("button", name=re.compile(r"^Ben")).click()
    expect(holder.locator(".you-sit")).to_have_text("You sit East (Ben): your side is EW.")
    tv = phone()
    tv.goto(link)
    tv.goto(f"/games/{table.pk}/live/")
    yield {"keeper": keeper, "player": player, "holder": holder, "tv": tv}
    for pages in made:
        next(pages, None)  # closes the page's context


def totals(game: Game) -> dict[str, str]:
    game.refresh_from_db()
    return {side: str(total) for side, total in game.totals.items()}


def shown_everywhere(pages, game: Game, since: float, *, text: str | None = None) -> None:
    """Each page shows the game's totals (and ``text``) by ``since`` + 3 s: checked one page after another
    against the one deadline, while all of them follow the game at once."""
    expected = totals(game)
    for name, page in pages.items():
        for side, total in expected.items():
            left = max(0.05, since + WITHIN - time.monotonic())
            expect(page.locator(f'[data-total="{side}"]'), f"{name}'s {side}").to_have_text(total, timeout=left * 1000)
        if text:
            left = max(0.05, since + WITHIN - time.monotonic())
            expect(page.get_by_text(text).first, f"{name}: {text}").to_be_visible(timeout=left * 1000)


def stored(game: Game, *, hands: int) -> float:
    """When the game has ``hands`` hands on the server (the scorekeeper's phone sends its hand from its
    outbox): the moment from which the other phones have three seconds."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.hand_count >= hands:
            return time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"the scorekeeper's phone did not send hand {hands}")


def tap_a_hand(page) -> None:
    for field, label in (("face_NS", "9"), ("face_EW", "5"), ("stack_size", "6"), ("stack_holder", "W · Dan")):
        page.locator(f"#id_{field}_group").get_by_label(label, exact=True).check()


def test_a_hand_a_correction_and_an_undo_show_on_every_phone_within_3_seconds(phones, table, owner):
    keeper = phones["keeper"]
    watchers = {name: page for name, page in phones.items() if name != "keeper"}
    # Recorded on the scorekeeper's phone: the three others.
    expect(keeper.get_by_role("button", name="Copy the link")).to_be_visible()
    keeper.locator("#table-code").scroll_into_view_if_needed()
    shoot(keeper, "table-code-phone", full_page=False)
    keeper.evaluate("window.scrollTo(0, 0)")
    tap_a_hand(keeper)
    keeper.get_by_role("button", name="Record hand 1").click()
    shown_everywhere(watchers, table, stored(table, hands=1))
    expect(keeper.get_by_text("Hand 1 recorded")).to_be_visible()
    # From here on, from another scorekeeper's phone: all four.
    hand_record(game=table, record=HAND, by=owner)
    shown_everywhere(phones, table, time.monotonic(), text=None)
    hand_correct(game=table, number=1, record=CORRECTED, by=owner, reason="miscounted")
    shown_everywhere(phones, table, time.monotonic())
    for name in ("keeper", "player", "holder"):
        expect(phones[name].locator("#hand-1 .tag"), name).to_have_text("corrected")
    shoot(phones["holder"], "follow-holder-phone", full_page=False)
    shoot(phones["player"], "follow-player-phone", full_page=False)
    hand_undo(game=table, by=owner, reason="dealt twice")
    shown_everywhere(phones, table, time.monotonic())
    for name in ("keeper", "player", "holder"):
        expect(phones[name].locator("#undone-2"), name).to_be_visible()
    # Nobody reloaded: the pages are the ones first opened.
    for name, page in phones.items():
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1, name


def place_of_hand_3(page) -> list[float]:
    return page.evaluate("[scrollY, document.getElementById('hand-3').getBoundingClientRect().top]")


def test_an_update_keeps_the_viewers_place_the_focus_and_what_they_opened(phones, table, owner):
    for _ in range(8):
        hand_record(game=table, record=HAND, by=owner)
    hand_correct(game=table, number=3, record=CORRECTED, by=owner, reason="miscounted")
    hand_correct(game=table, number=3, record=HAND, by=owner, reason="it was right")  # an earlier change, folded
    holder, player = phones["holder"], phones["player"]
    for page in (holder, player):
        expect(page.locator("#hand-8")).to_be_visible(timeout=WITHIN * 1000)
    # The holder reads hand 3's trail, scrolled so that it is near the top of the screen, focus on its fold;
    # the player has scrolled to hand 3 too, and reads.
    holder.locator("#hand-3 .trail details summary").click()
    for page in (holder, player):
        page.evaluate("document.getElementById('hand-3').scrollIntoView({block: 'start'}); window.scrollBy(0, -40)")
    before = {name: place_of_hand_3(page) for name, page in (("holder", holder), ("player", player))}
    assert before["holder"][0] > 500
    changes = (
        ("a new hand above the one being read", lambda: hand_record(game=table, record=HAND, by=owner), "#hand-9"),
        ("a correction of another hand", lambda: hand_correct(game=table, number=6, record=CORRECTED, by=owner,
                                                               reason="miscounted"), "#hand-6 .tag:has-text('corrected')"),
        ("an undo", lambda: hand_undo(game=table, by=owner, reason="dealt twice"), "#undone-9"),
    )
    for what, change, shown in changes:
        change()
        for name, page in (("holder", holder), ("player", player)):
            expect(page.locator(shown), f"{name}: {what}").to_be_attached(timeout=WITHIN * 1000)
            after = place_of_hand_3(page)
            assert abs(after[1] - before[name][1]) <= 1, (name, what, before[name], after)
            before[name] = after
    assert holder.evaluate("document.querySelector('#hand-3 .trail details').open")
    assert holder.evaluate("document.activeElement === document.querySelector('#hand-3 .trail details summary')")


def test_the_scorekeepers_half_entered_hand_stays_while_another_phones_hand_comes_in(phones, table, owner):
    keeper = phones["keeper"]
    keeper.locator("#id_face_NS_group").get_by_label("9", exact=True).check()
    keeper.locator("#id_face_EW_group").get_by_label("5", exact=True).check()
    keeper.locator("#id_face_EW_group").get_by_label("5", exact=True).focus()
    hand_record(game=table, record=HAND, by=owner)
    since = time.monotonic()
    shown_everywhere({"keeper": keeper}, table, since)
    expect(keeper.locator("#id_face_NS_group input:checked")).to_have_value("9")
    expect(keeper.locator("#id_face_EW_group input:checked")).to_have_value("5")
    assert keeper.evaluate("document.activeElement.closest('fieldset').dataset.field") == "face_EW"


def test_a_new_code_stops_the_phones_that_used_the_old_one(phones, table, owner):
    keeper, holder = phones["keeper"], phones["holder"]
    keeper.get_by_role("button", name="Make a new code").click()
    expect(keeper.get_by_text("This game has a new table code")).to_be_visible()
    expect(holder.get_by_role("alert")).to_contain_text("no longer opens the game", timeout=WITHIN * 1000)
    expect(phones["tv"].get_by_role("alert")).to_contain_text("no longer opens the game", timeout=WITHIN * 1000)
    # The player's phone follows by its account, not by the code: it goes on.
    hand_record(game=table, record=HAND, by=owner)
    shown_everywhere({"player": phones["player"]}, table, time.monotonic())


def test_the_code_opens_that_game_and_nothing_else(phones, table, owner):
    """The phone that has only the table's code follows this game: another game, the league, the players,
    the scorekeeper's entry and the API are closed to it, and its view links to none of them."""
    private = league_create(name="Back Room", by=owner, is_public=False)
    people = [player_create(name=name, by=owner, league=private) for name in ("Sol", "Tia", "Uma", "Vic")]
    other = game_start(game_type="spades", league=private, by=owner,
                       seats={seat: person.pk for seat, person in zip("NESW", people, strict=True)})
    holder = phones["holder"]
    expect(holder.locator("main a[href^='/leagues/'], main a[href^='/players/']")).to_have_count(0)
    closed = [f"/games/{other.pk}/follow/", f"/games/{other.pk}/live/", f"/games/{other.pk}/",
              f"/games/{table.pk}/", f"/games/{table.pk}/hands.csv", f"/leagues/{private.slug}/",
              f"/players/{people[0].pk}/", f"/api/v1/games/{table.pk}/", f"/api/v1/games/{other.pk}/"]
    for url in closed:
        answer = holder.request.get(url, max_redirects=0)
        assert answer.status in (302, 401, 403, 404), (url, answer.status)
        assert "Sol" not in answer.text() and "Back Room" not in answer.text(), url
    assert holder.request.get("/api/v1/games/").json()["count"] == 0
    # Its own game's pages still open, the TV board among them.
    holder.goto(f"/games/{table.pk}/live/")
    expect(holder.locator('[data-total="NS"]')).to_be_visible()

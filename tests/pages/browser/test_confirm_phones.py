"""Every hand confirmed by the other side, on four phones at 390×844: the scorekeeper's (Ann, North, signed in),
an opponent's signed in (Ben, East), an opponent's with only the table's code (Dan, West) and the TV board.

A hand shows on all of them within 3 seconds; Ben confirms it on his phone and the scorekeeper's phone shows it
confirmed; Dan disputes one, the scorekeeper corrects it to his version and the trail says so; a hand is
confirmed on the scorekeeper's phone handed across the table; a confirmation made offline arrives once; the
code opens nothing else."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Game, HandCheck
from games.services import game_start, hand_record, league_create, player_link

from .conftest import phone_page, shoot, sign_in
from .test_every_phone import HAND, shown_everywhere, stored, tap_a_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(owner, league, players, member):
    """A casual Thieving Stink game whose hands the other side confirms: Ann (North) is the scorekeeper's own
    player, Ben (East) the member's."""
    player_link(league=league, player=players[0], user=owner, by=owner)
    player_link(league=league, player=players[1], user=member, by=owner)
    return game_start(game_type="thieving_stink", by=owner, options={"target": 100_000}, confirmation="opponents",
                      seats={seat: player.pk for seat, player in zip("NESW", players, strict=True)})


@pytest.fixture
def phones(browser, live_server, table, owner, member):
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
    ben = phone()
    sign_in(ben, member.username)
    ben.goto(link)
    expect(ben.locator(".you-sit")).to_have_text("You sit East (Ben): your side is EW.")
    dan = phone()
    dan.goto(link)
    dan.get_by_role("button", name=re.compile(r"^Dan")).click()
    expect(dan.locator(".you-sit")).to_have_text("You sit West (Dan): your side is EW.")
    tv = phone()
    tv.goto(link)
    tv.goto(f"/games/{table.pk}/live/")
    yield {"keeper": keeper, "ben": ben, "dan": dan, "tv": tv}
    for pages in made:
        next(pages, None)


def tag(page, number: int):
    return page.locator(f"#hand-{number} [data-check]")


def test_a_table_of_four_phones_confirms_every_hand(phones, table, owner):
    keeper, ben, dan = phones["keeper"], phones["ben"], phones["dan"]
    watchers = {name: page for name, page in phones.items() if name != "keeper"}

    # Hand 1, entered on the scorekeeper's phone: on every phone within 3 s, waiting for EW.
    tap_a_hand(keeper)
    keeper.get_by_role("button", name="Record hand 1").click()
    shown_everywhere(watchers, table, stored(table, hands=1))
    expect(tag(keeper, 1)).to_have_text("waiting for EW")
    expect(keeper.locator(".unconfirmed-note")).to_have_text("Hand 1 is not yet confirmed by the other side.")
    expect(ben.get_by_role("button", name="Confirm hand 1")).to_be_visible()
    ben.locator("#hand-1").scroll_into_view_if_needed()
    shoot(ben, "confirm-opponent-phone", full_page=False)

    # Ben confirms on his own phone; the scorekeeper's phone shows it within 3 s, without a reload.
    ben.get_by_role("button", name="Confirm hand 1").click()
    expect(tag(keeper, 1)).to_have_text("confirmed by East (Ben)", timeout=3_000 + 5_000)
    expect(keeper.locator(".unconfirmed-note")).to_have_count(0)
    keeper.locator("#hand-1").scroll_into_view_if_needed()
    shoot(keeper, "confirm-keeper-confirmed-phone", full_page=False)

    # Hand 2: Dan (only the code) disputes it; the scorekeeper corrects it to his version.
    hand_record(game=table, record=HAND, by=owner)
    expect(tag(dan, 2)).to_have_text("waiting for EW")
    dan.locator("#hand-2").get_by_role("link", name="Dispute").click()
    dan.get_by_text("Something's wrong? Dispute it").click()
    dan.locator("#id_face_NS_group").get_by_label("8", exact=True).check()
    dan.locator("#id_face_EW_group").get_by_label("5", exact=True).check()
    dan.get_by_label("What happened (the scorekeeper reads it)").fill("I had two more honours for NS")
    shoot(dan, "confirm-dispute-phone", full_page=False)
    dan.get_by_role("button", name="Dispute hand 2").click()
    expect(dan.get_by_text("Hand 2 disputed")).to_be_visible()
    expect(tag(keeper, 2)).to_have_text("disputed by West (Dan)", timeout=3_000 + 5_000)
    keeper.locator("#hand-2").get_by_role("link", name="Settle it").click()
    expect(keeper.get_by_role("heading", name="West (Dan) disputes it")).to_be_visible()
    shoot(keeper, "confirm-settle-phone", full_page=False)
    keeper.get_by_role("button", name="Correct it to West (Dan)'s version").click()
    expect(tag(keeper, 2)).to_have_text("confirmed by West (Dan)")
    expect(keeper.locator("#hand-2 .tag", has_text="corrected")).to_be_visible()
    keeper.locator("#hand-2 details.check-trail summary").click()
    expect(keeper.locator("#hand-2 .check-lines li")).to_have_text([
        re.compile(r"^Disputed by West \(Dan\) on their phone, .*: says .*“I had two more honours for NS”$"),
        re.compile(r"^Confirmed by West \(Dan\) by the correction they asked for, "),
    ])
    expect(keeper.locator("#hand-2 .change-head")).to_contain_text("as West said: I had two more honours for NS")

    # Hand 3: the scorekeeper's phone is handed across; Ben taps his name.
    hand_record(game=table, record=HAND, by=owner)
    keeper.reload()
    keeper.locator("#hand-3").get_by_role("link", name="Hand the phone to EW").click()
    expect(keeper.get_by_text("Hand this phone to EW")).to_be_visible()
    shoot(keeper, "confirm-handed-phone", full_page=False)
    keeper.get_by_role("button", name="I'm Ben (East): confirm").click()
    expect(tag(keeper, 3)).to_have_text("confirmed by East (Ben)")
    assert HandCheck.objects.get(number=3).via == "handed"

    # Hand 4: Ben's phone is offline when he confirms; it arrives once he is back, once.
    hand_record(game=table, record=HAND, by=owner)
    expect(ben.get_by_role("button", name="Confirm hand 4")).to_be_visible()
    ben.context.set_offline(True)
    ben.get_by_role("button", name="Confirm hand 4").click()
    expect(ben.locator("[data-confirm-status]")).to_have_text(
        "Hand 4: your confirmation is kept on this phone and sent when it is back online.")
    time.sleep(1)
    assert not HandCheck.objects.filter(number=4).exists()
    ben.context.set_offline(False)
    ben.evaluate("window.dispatchEvent(new Event('online'))")
    # Sent at once, or, when that first try still meets no network, at the page's next try (every 5 s).
    expect(ben.locator("[data-confirm-status]")).to_have_text("Hand 4 confirmed by East (Ben).", timeout=5_000 + 5_000)
    expect(tag(keeper, 4)).to_have_text("confirmed by East (Ben)", timeout=3_000 + 5_000)
    time.sleep(2)
    assert HandCheck.objects.filter(number=4).count() == 1
    assert Game.objects.get(pk=table.pk).unconfirmed == 0


def test_the_code_opens_nothing_else(phones, table, owner, league, players):
    dan = phones["dan"]
    other = game_start(game_type="thieving_stink", by=owner, options={"target": 100_000}, confirmation="opponents",
                       seats={seat: player.pk for seat, player in zip("NESW", players, strict=True)})
    hand_record(game=other, record=HAND, by=owner)
    private = league_create(name="Private Club", by=owner)
    private.is_public = False
    private.save(update_fields=["is_public"])

    for address in (f"/games/{other.pk}/follow/", f"/games/{other.pk}/hands/1/check/", f"/games/{other.pk}/",
                    f"/games/{table.pk}/", f"/leagues/{private.slug}/"):
        response = dan.goto(address)
        assert response.status in (403, 404) or "/accounts/login/" in dan.url, address
    # The code confirms in its own game only, through the API as well.
    refused = dan.request.post(f"/api/v1/games/{other.pk}/hands/1/confirm/",
                               data={"table_token": table.table_token, "seat": "W"})
    assert refused.status == 404
    assert not HandCheck.objects.filter(game=other).exists()

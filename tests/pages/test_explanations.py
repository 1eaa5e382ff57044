"""Every number in words on the pages, with no script: each hand's score opens its explanation (a
``<details>`` whose summary is the score), and what each side needs sits under the totals, on the table
page and on the spectator board."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.services import game_abandon, hand_record

pytestmark = pytest.mark.django_db

NAMES = "Ann (N), Ben (E), Cat (S), Dan (W)"
FIRST = {"bids": {"N": 2, "E": 3, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 3, "S": 3, "W": 4}}
SECOND = {"bids": {"N": 2, "E": 4, "S": 2, "W": 4}, "tricks": {"N": 3, "E": 4, "S": 2, "W": 4}}
SMUDGE = {"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "NS", "game": "EW", "all_tricks": False}


def text_of(page: str) -> str:
    """The page's words, tags dropped (a list item ends with a line), spaces squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", page.replace("</li>", "\n"))))


def listed(page: str, label: str) -> list[str]:
    """The items of the list named ``label`` (its ``aria-label``), as read."""
    start = page.index(f'aria-label="{label}"')
    return [text_of(item).strip() for item in re.findall(r"<li>(.*?)</li>", page[start:page.index("</ul>", start)])]


def hand_card(page: str, number: int) -> str:
    start = page.index(f'id="hand-{number}"')
    ends = [end for end in (page.find('<li id="hand-', start), page.find("</ol>", start)) if end > 0]
    return page[start:min(ends)]


def test_a_hands_score_opens_its_words(owner_client, start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=FIRST, by=owner)
    hand_record(game=game, record=SECOND, by=owner)
    card = hand_card(owner_client.get(reverse("table", args=[game.pk])).content.decode(), 2)
    details = card[card.index("<details"):card.index("</details>")]
    summary = text_of(details[details.index("<summary>"):details.index("</summary>")])
    assert summary.split() == ["NS", "+41", "EW", "+80", "in", "words"]
    assert listed(details, "Hand 2 in words") == [
        "NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 3 in all", "EW bid 8 and took 8: 80"]


def test_a_loss_reads_with_a_minus_sign(owner_client, start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record={"bids": {"N": "nil", "E": 4, "S": 4, "W": 5},
                                   "tricks": {"N": 2, "E": 4, "S": 3, "W": 4}}, by=owner)
    card = hand_card(owner_client.get(reverse("table", args=[game.pk])).content.decode(), 1)
    summary = text_of(card[card.index("<summary>"):card.index("</summary>")])
    assert summary.split() == ["NS", "\u22129", "EW", "\u221290", "in", "words"]
    assert listed(card, "Hand 1 in words")[0].endswith("\u2212 50 for Ann's failed nil = \u22129; 1 bag, 1 in all")


def test_the_table_page_says_what_each_side_needs_under_the_totals(owner_client, start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=FIRST, by=owner)
    hand_record(game=game, record=SECOND, by=owner)
    needs = "NS need 417 to reach 500; EW need 350 to reach 500; NS are 7 bags from a penalty"
    # The scorekeeper's phone: on one line with the target, above the entry, the whole of it one tap away.
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    details = page[page.index('<details class="needs-more"'):]
    details = details[:details.index("</details>")]
    summary = text_of(details[:details.index("</summary>")]).strip()
    assert summary == f"Playing to 500 · {needs}"
    assert listed(details, "What each side needs") == needs.split("; ")
    assert page.index('class="scoreboard') < page.index('class="needs-more"') < page.index('id="entry"')
    # Anyone following it: the line itself, under the totals.
    page = Client().get(reverse("table", args=[game.pk])).content.decode()
    facts = page[page.index('<p class="game-facts"'):]
    assert text_of(facts[:facts.index("</p>")]).strip() == f"Playing to 500 {needs} Hand 3: Cat (S) deals"


def test_smudge_names_the_bidder(client, start_game, owner):
    game = start_game("smudge")
    hand_record(game=game, record=SMUDGE, by=owner)
    page = text_of(client.get(reverse("table", args=[game.pk])).content.decode())
    assert "NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW" in page
    assert "NS made 2 of 3: set back 3" in page and "EW score 2" in page
    assert "NS need 24 more and must make a bid to win; EW need 19 more and must make a bid to win" in page


def test_a_game_over_shows_no_needs(owner_client, start_game, owner, finish):
    finished = finish("thieving_stink")
    abandoned = start_game("trumps")
    game_abandon(game=abandoned, by=owner)
    for game in (finished, abandoned):
        assert 'class="needs"' not in owner_client.get(reverse("table", args=[game.pk])).content.decode()
    card = hand_card(owner_client.get(reverse("table", args=[finished.pk])).content.decode(), 1)
    assert "NS score 100 for 10 face cards + 20 for the stack of 4 = 120" in text_of(card)


def test_the_spectator_board_says_the_last_hand_in_words_and_what_each_side_needs(client, start_game, owner):
    game = start_game("thieving_stink")
    hand_record(game=game, record={"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}},
                by=owner)
    for url in (reverse("live", args=[game.pk]), reverse("live-board", args=[game.pk])):
        page = text_of(client.get(url).content.decode())
        assert ("Face cards NS 6, EW 7, trump stack of 7 held by Ben (E); NS score 60 for 6 face cards; "
                "EW score 70 for 7 face cards + 35 for the stack of 7 = 105") in page
        assert "NS need 440 to reach 500; EW need 395 to reach 500" in page


def test_a_renamed_player_is_named_anew(owner_client, start_game, owner, players):
    game = start_game("smudge")
    hand_record(game=game, record=SMUDGE, by=owner)
    players[0].name = "Annie"
    players[0].save()
    assert "NS bid 3 (Annie)" in text_of(owner_client.get(reverse("table", args=[game.pk])).content.decode())


@pytest.mark.parametrize("hands", [1, 20])
def test_the_words_cost_no_query(owner_client, start_game, owner, hands, django_assert_max_num_queries):
    game = start_game("spades", target=10**6)
    for _ in range(hands):
        hand_record(game=game, record=FIRST, by=owner)
    owner_client.get(reverse("table", args=[game.pk]))
    with django_assert_max_num_queries(8):
        page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    assert page.count('<details class="explain"') == hands

"""A club night in the room: the board on the TV, the table cards and the result sheet; and the night on the table,
league and home pages."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from games.models import Game
from games.services import hand_record, league_create, night_check_in, night_round_start, player_create
from games.views.qr import qr_inline
from tests.conftest import join
from tests.nights import conftest as nights
from tests.nights.conftest import EW_HAND, NS_HAND

pytestmark = pytest.mark.django_db

# The nights' fixtures: a room of players, a night started, players checked in.
room, start_night, check_in = nights.room, nights.start_night, nights.check_in

NINE = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


# Elements whose text a reader takes apart from what is around them (a browser's innerText puts a break or a tab).
APART = ("p", "div", "td", "th", "tr", "li", "h1", "h2", "h3", "section", "article", "header", "figure",
         "figcaption", "table", "thead", "tbody", "caption", "ul", "ol", "br")
VOID = ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")


class Texts(HTMLParser):
    """What a page says: each element's text (spaces collapsed) by its id, each link's address by its words, and
    how many pictures drawn in it (QR codes) it holds."""

    def __init__(self, html: str):
        super().__init__()
        self.open: list[tuple[str, str | None, list[str]]] = []
        self.by_id: dict[str, str] = {}
        self.svgs = 0
        self.links: dict[str, str] = {}
        self.href: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            self.svgs += 1
        if tag == "a":
            self.href = attrs.get("href")
            self.link_text: list[str] = []
        if tag in VOID:
            if tag == "br" and self.open:
                self.open[-1][2].append(" ")
            return
        self.open.append((tag, attrs.get("id"), []))

    def handle_endtag(self, tag):
        if tag == "a" and self.href is not None:
            self.links[" ".join("".join(self.link_text).split())] = self.href
            self.href = None
        while self.open:
            name, element_id, parts = self.open.pop()
            text = "".join(parts) + (" " if name in APART else "")
            if self.open:
                self.open[-1][2].append(text)
            if element_id:
                self.by_id[element_id] = " ".join(text.split())
            if name == tag:
                break

    def handle_data(self, data):
        if self.open:
            self.open[-1][2].append(data)
        if self.href is not None:
            self.link_text.append(data)


def texts(response) -> Texts:
    return Texts(response.content.decode())


@pytest.fixture
def night_of_nine(start_night, check_in, owner):
    """A night of two-hand rounds with nine players checked in and round 1 started: Ann, Ben, Cid, Dee at table 1
    (N, E, S, W), Eve, Fay, Gus, Hal at table 2, Ida sitting out."""
    night = start_night(name="Thursday night", hands=2)
    check_in(night, *NINE)
    night_round_start(night=night, by=owner)
    return night


def table_game(night, number: int, round_number: int = 1) -> Game:
    return night.night_rounds.get(number=round_number).tables.get(number=number).game


def board(client, night):
    return client.get(reverse("night-board", args=[night.pk]))


def test_the_board_shows_each_table_of_the_round_with_its_seats_totals_and_progress(client, night_of_nine, owner):
    hand_record(game=table_game(night_of_nine, 1), record=NS_HAND, by=owner)
    page = texts(board(client, night_of_nine))
    assert page.by_id["room-table-1"] == "Table 1 1 of 2 hands played N Ann S Cid 61 E Ben W Dee −70"
    assert page.by_id["room-table-2"] == "Table 2 0 of 2 hands played N Eve S Gus 0 E Fay W Hal 0"
    assert "Sitting out: Ida" in page.by_id["room-tables"]
    assert page.by_id["room-head"].startswith("Thursday night Round 1 of 3 · Spades · 2 hands a round")


def test_a_table_whose_game_is_over_says_so_and_who_won(client, night_of_nine, owner):
    game = table_game(night_of_nine, 1)
    hand_record(game=game, record=NS_HAND, by=owner)
    hand_record(game=game, record=NS_HAND, by=owner)
    page = texts(board(client, night_of_nine))
    assert page.by_id["room-table-1"] == "Table 1 Done: NS won N Ann S Cid 122 E Ben W Dee −140"


def test_the_standings_show_each_players_total_and_round_by_round_results(client, night_of_nine, owner):
    for number, record in ((1, NS_HAND), (2, EW_HAND)):
        game = table_game(night_of_nine, number)
        hand_record(game=game, record=record, by=owner)
        hand_record(game=game, record=record, by=owner)
    lines = line_texts(client, night_of_nine)
    # Place, who, each round's result (W won, L lost, out: sat out), wins and points.
    assert lines["Ann"] == "1 Ann W 1 122"
    assert lines["Fay"] == "1 Fay W 1 122"
    # Nothing won and nothing lost ranks above a loss by 140.
    assert lines["Ida"] == "5 Ida out 0 0"
    assert lines["Ben"] == "6 Ben L 0 −140"
    second = night_round_start(night=night_of_nine, by=owner)
    lines = line_texts(client, night_of_nine)
    # Round 2 under way: everyone's second result is "…", but the one who sits it out.
    sitting_out = second.sitting_out[0]
    name = night_of_nine.entrants.get(player_id=sitting_out).player.name
    assert lines[name].split()[3] == "out"
    assert all(line.split()[3] == "…" for who, line in lines.items() if who != name)


def line_texts(client, night) -> dict[str, str]:
    """The board's standings lines by player name."""
    page = texts(board(client, night))
    return {entrant.player.name: page.by_id[f"room-line-{entrant.player_id}"]
            for entrant in night.entrants.select_related("player")}


def player_id(night, name: str) -> int:
    return night.entrants.get(player__name=name).player_id


def test_a_pairs_night_ranks_each_pair(client, start_night, owner, room):
    night = start_night(movement="pairs", hands=1)
    for first, second in (("Ann", "Ben"), ("Cid", "Dee")):
        night_check_in(night=night, by=owner, player=room[first], partner=room[second])
    round_ = night_round_start(night=night, by=owner)
    game = round_.tables.select_related("game__north").get().game
    hand_record(game=game, record=NS_HAND, by=owner)
    winners, losers = (1, 2) if game.north.name in ("Ann", "Ben") else (2, 1)
    lines = texts(board(client, night)).by_id
    names = {1: "Ann & Ben", 2: "Cid & Dee"}
    assert lines[f"room-line-{winners}"] == f"1 Pair {winners}: {names[winners]} W 1 61"
    assert lines[f"room-line-{losers}"] == f"2 Pair {losers}: {names[losers]} L 0 −70"


def test_a_round_with_a_time_limit_shows_when_time_is_up_and_the_minutes_left(client, start_night, check_in,
                                                                            owner, monkeypatch):
    night = start_night(round_end="time", minutes=20)
    check_in(night, *NINE[:4])
    round_ = night_round_start(night=night, by=owner)
    page = texts(board(client, night))
    assert f"time is up at {timezone.localtime(round_.time_up_at):%H:%M}" in page.by_id["room-head"]
    assert page.by_id["room-table-1"].startswith("Table 1 0 hands played · 20 min left")
    later = round_.time_up_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = texts(board(client, night))
    assert page.by_id["room-table-1"].startswith("Table 1 Time is up: hand 1 is the last")


def test_the_board_refreshes_itself_without_javascript_and_polls_its_fragment(client, night_of_nine):
    response = board(client, night_of_nine)
    page = response.content.decode()
    assert f'data-live-url="{reverse("night-board-live", args=[night_of_nine.pk])}"' in page
    assert 'http-equiv="refresh"' in page
    # The page is drawn at the version it names, so the first poll of an unchanged night is a 304.
    version = re.search(r'data-version="([^"]+)"', page).group(1).replace("&quot;", '"')
    live = reverse("night-board-live", args=[night_of_nine.pk])
    assert client.get(live, HTTP_IF_NONE_MATCH=version).status_code == 304


def test_the_fragment_answers_304_while_nothing_changes_and_200_after_a_hand(client, night_of_nine, owner):
    live = reverse("night-board-live", args=[night_of_nine.pk])
    first = client.get(live)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    hand_record(game=table_game(night_of_nine, 2), record=EW_HAND, by=owner)
    second = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert texts(second).by_id["room-table-2"] == "Table 2 1 of 2 hands played N Eve S Gus −70 E Fay W Hal 61"


def test_each_version_is_rendered_once_for_every_board(client, night_of_nine, owner, django_assert_num_queries):
    live = reverse("night-board-live", args=[night_of_nine.pk])
    first = client.get(live)
    # Another board on the same version: the night's version with the viewer's right to see it (one statement), and
    # the stored fragment.
    with django_assert_num_queries(1):
        again = client.get(live)
    assert again.content == first.content and again["ETag"] == first["ETag"]


@pytest.mark.parametrize("tables", [1, 6])
def test_the_boards_queries_do_not_grow_with_the_tables(client, start_night, owner, league, tables,
                                                        django_assert_max_num_queries):
    night = start_night(hands=4)
    for n in range(4 * tables):
        night_check_in(night=night, by=owner, player=player_create(name=f"Player {n}", by=owner, league=league))
    round_ = night_round_start(night=night, by=owner)
    for table in round_.tables.all():
        hand_record(game=table.game, record=NS_HAND, by=owner)
    # The night; its version (games, renames); entrants, rounds, tables with games and players, substitutions.
    with django_assert_max_num_queries(7):
        page = board(client, night)
    assert sorted(key for key in texts(page).by_id if re.fullmatch(r"room-table-\d+", key)) == sorted(
        f"room-table-{number}" for number in range(1, tables + 1))
    with django_assert_max_num_queries(7):
        assert client.get(reverse("night-results", args=[night.pk])).status_code == 200


@pytest.fixture
def private_night(owner, make_user):
    private = league_create(name="Back Room", by=owner, is_public=False)
    from games.services import night_start

    night = night_start(league=private, by=owner, game_type="spades", round_end="hands", hands=2,
                        name="Members only")
    for name in ("Ann", "Ben", "Cid", "Dee"):
        night_check_in(night=night, by=owner, player=player_create(name=name, by=owner, league=private))
    night_round_start(night=night, by=owner)
    return night


def test_a_private_leagues_board_is_refused_to_outsiders_and_shown_to_members(client, signed_in, private_night,
                                                                            stranger, make_user, owner):
    for name in ("night-board", "night-board-live", "night-results", "night-cards"):
        assert client.get(reverse(name, args=[private_night.pk])).status_code == 404
    outsider = signed_in(stranger)
    for name in ("night-board", "night-board-live", "night-results", "night-cards"):
        assert outsider.get(reverse(name, args=[private_night.pk])).status_code == 404
    member = make_user("member")
    join(private_night.league, member, "member", owner)
    insider = signed_in(member)
    assert insider.get(reverse("night-board", args=[private_night.pk])).status_code == 200
    assert insider.get(reverse("night-results", args=[private_night.pk])).status_code == 200


def test_an_unknown_night_is_404(client):
    assert client.get(reverse("night-board", args=[999999])).status_code == 404
    assert client.get(reverse("night-board-live", args=[999999])).status_code == 404


def test_the_board_shows_no_code_and_nothing_to_do(owner_client, night_of_nine):
    page = board(owner_client, night_of_nine).content.decode()
    assert night_of_nine.code not in page and "<form" not in page.split('id="room"')[1]


def test_the_organiser_prints_a_card_per_table_with_the_check_in_code_and_the_tables_game(owner_client,
                                                                                       night_of_nine):
    response = owner_client.get(reverse("night-cards", args=[night_of_nine.pk]))
    assert response.status_code == 200
    page = texts(response)
    assert page.by_id["card-1"] == "Table 1" and page.by_id["card-2"] == "Table 2" and "card-3" not in page.by_id
    # On each card, the night's check-in code and its table's game's: four QR codes.
    assert page.svgs == 4
    html = response.content.decode()
    check_in_link = f"http://testserver/nights/{night_of_nine.pk}/check-in/?code={night_of_nine.code}"
    assert page.links[check_in_link] == check_in_link
    assert html.count(qr_inline(check_in_link, title="Check in to Thursday night")) == 2
    game = table_game(night_of_nine, 2)
    game_link = f"http://testserver{reverse('join', args=[game.pk, game.table_token])}"
    assert qr_inline(game_link, title="Table 2's game") in html and game_link in page.by_id["card-2-game"]
    assert "no-store" in response["Cache-Control"]


def test_before_the_first_round_the_cards_are_one_per_four_players_or_as_many_as_asked(owner_client, start_night,
                                                                                     check_in):
    night = start_night()
    check_in(night, *NINE)
    url = reverse("night-cards", args=[night.pk])
    page = texts(owner_client.get(url))
    assert ("card-2" in page.by_id, "card-3" in page.by_id, page.svgs) == (True, False, 2)
    assert "card-5" in texts(owner_client.get(url + "?tables=5")).by_id
    refused = owner_client.get(url + "?tables=lots")
    assert refused.status_code == 400
    assert texts(refused).by_id["tables-error"] == "Tables: give a whole number from 1 to 40."


def test_only_the_organisers_print_the_cards(client, signed_in, night_of_nine, member, scorekeeper):
    url = reverse("night-cards", args=[night_of_nine.pk])
    assert client.get(url).status_code == 403
    assert signed_in(member).get(url).status_code == 403
    assert signed_in(scorekeeper).get(url).status_code == 200


def test_the_result_sheet_has_the_standings_and_each_rounds_tables(client, night_of_nine, owner):
    for number, record in ((1, NS_HAND), (2, EW_HAND)):
        game = table_game(night_of_nine, number)
        hand_record(game=game, record=record, by=owner)
        hand_record(game=game, record=record, by=owner)
    response = client.get(reverse("night-results", args=[night_of_nine.pk]))
    assert response.status_code == 200
    page = texts(response)
    rounds = page.by_id["sheet-round-1"]
    assert rounds == "Round 1"
    html = " ".join(Texts(response.content.decode()).by_id.get("content", "").split())
    assert "1 Ann (N) & Cid (S) v Ben (E) & Dee (W) 122 v −140 won by Ann & Cid (2 hands)" in html
    assert "2 Eve (N) & Gus (S) v Fay (E) & Hal (W) −140 v 122 won by Fay & Hal (2 hands)" in html
    assert "Sat out: Ida" in html
    assert "1 Ann W t1 1 0 0 122" in html and "5 Ida out 0 0 0 0" in html


def test_the_result_sheet_links_the_results_csv_where_the_api_serves_it(client, night_of_nine):
    try:
        csv = reverse("api-night-results", args=[night_of_nine.pk])
    except NoReverseMatch:
        csv = None
    page = texts(client.get(reverse("night-results", args=[night_of_nine.pk])))
    assert page.links.get("Download the results (CSV)") == csv


def test_the_table_page_says_which_night_round_and_table_the_game_is(owner_client, night_of_nine):
    game = table_game(night_of_nine, 2)
    page = texts(owner_client.get(reverse("table", args=[game.pk])))
    assert page.by_id["night-place"] == "Thursday night · round 1 · table 2"
    assert page.links["Thursday night · round 1 · table 2"] in (
        f"/nights/{night_of_nine.pk}/", reverse("night-board", args=[night_of_nine.pk]))


def test_the_table_page_of_a_round_with_a_time_limit_says_when_time_is_up(owner_client, start_night, check_in,
                                                                        owner):
    night = start_night(round_end="time", minutes=25, name="Timed")
    check_in(night, *NINE[:4])
    round_ = night_round_start(night=night, by=owner)
    game = round_.tables.get().game
    page = texts(owner_client.get(reverse("table", args=[game.pk])))
    assert page.by_id["night-place"] == (f"Club night Timed · round 1 · table 1 · time is up at "
                                         f"{timezone.localtime(round_.time_up_at):%H:%M}")
    Game.objects.filter(pk=game.pk).update(time_up_at=timezone.now() - timedelta(seconds=1))
    page = texts(owner_client.get(reverse("table", args=[game.pk])))
    assert page.by_id["night-place"].endswith("time is up: the hand in play is the last")


def test_a_game_of_no_night_says_nothing_of_nights(owner_client, start_game):
    game = start_game("spades")
    assert "night-place" not in texts(owner_client.get(reverse("table", args=[game.pk]))).by_id


def test_the_league_page_lists_its_nights_and_home_lists_mine(owner_client, night_of_nine, league):
    page = texts(owner_client.get(reverse("league", args=[league.slug])))
    assert page.links["room board"] == reverse("night-board", args=[night_of_nine.pk])
    assert page.links["results"] == reverse("night-results", args=[night_of_nine.pk])
    assert page.links["table cards"] == reverse("night-cards", args=[night_of_nine.pk])
    assert page.links["Thursday night"] == reverse("night", args=[night_of_nine.pk])
    home = texts(owner_client.get(reverse("home")))
    assert "Thursday night" in home.links and home.links["room board"] == reverse("night-board",
                                                                                  args=[night_of_nine.pk])


def test_a_league_member_sees_the_nights_board_and_results_but_not_the_cards(signed_in, member, night_of_nine,
                                                                           league):
    page = texts(signed_in(member).get(reverse("league", args=[league.slug])))
    assert "room board" in page.links and "results" in page.links and "table cards" not in page.links


def test_the_night_page_leads_to_the_board_the_sheet_and_for_its_organisers_the_cards(signed_in, owner, member,
                                                                                     night_of_nine):
    url = reverse("night", args=[night_of_nine.pk])
    director = texts(signed_in(owner).get(url)).links
    assert (director["Room board (for a TV)"], director["Result sheet"], director["Table cards to print"]) == (
        reverse("night-board", args=[night_of_nine.pk]), reverse("night-results", args=[night_of_nine.pk]),
        reverse("night-cards", args=[night_of_nine.pk]))
    watcher = texts(signed_in(member).get(url)).links
    assert "Room board (for a TV)" in watcher and "Table cards to print" not in watcher


def test_a_long_nights_standings_in_two_columns_show_the_latest_rounds(client, start_night, owner, league):
    night = start_night(hands=1, rounds=4)
    for n in range(17):
        night_check_in(night=night, by=owner, player=player_create(name=f"Player {n}", by=owner, league=league))
    for _ in range(4):
        for table in night_round_start(night=night, by=owner).tables.select_related("game"):
            hand_record(game=table.game, record=NS_HAND, by=owner)
    page = texts(board(client, night))
    # Seventeen lines take two columns, and a line there holds the last three rounds' marks (the sheet has all).
    assert page.by_id["room-standings"].count("R2–4") == 2
    first = night.entrants.get(order=min(night.entrants.values_list("order", flat=True))).player_id
    _place, _player, _number, *marks, _wins, _points = page.by_id[f"room-line-{first}"].split()
    assert len(marks) == 3

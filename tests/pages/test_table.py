"""The table page: scoreboard with names, totals, bags, target and dealer; who sees the form; query counts."""

import pytest
from django.urls import reverse

from games.rules import game_types
from games.services import hand_record, league_create
from tests.conftest import table_in
from tests.pages.roles import Page

pytestmark = pytest.mark.django_db

SPADES_HAND = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}


def test_scoreboard_shows_names_totals_bags_target_and_dealer(owner_client, start_game, owner):
    game = start_game("spades", target=300)
    hand_record(game=game, record=SPADES_HAND, by=owner)
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    scores = Page(page).get("region", "Scores").text
    assert "N Ann S Cat" in scores and "E Ben W Dan" in scores  # read out apart, each seat with its player
    assert "Cat 70 0 bags" in scores and "Dan 60 0 bags" in scores  # each side: its players, total and bags
    assert 'data-total="NS">70<' in page and 'data-total="EW">60<' in page  # what the page's script updates
    assert "Playing to 300 · " in Page(page).text
    assert Page(page).get("heading", "Hand 2 · Ben deals")  # the next hand's entry says who deals it
    assert "<span data-next-dealer>Ben</span>" in page
    assert Page(page).get("button", "Record hand 2").attrs["type"] == "submit"
    assert 'name="idempotency_key"' in page and 'name="expected_number" value="2"' in page


def test_each_game_type_renders_its_hand_form(owner_client, start_game):
    expected = {"spades": "bid_N", "smudge": 'name="bidder"', "trumps": 'name="declarer"',
                "thieving_stink": 'name="stack_holder"'}
    for game_type in game_types():
        marker = expected[game_type]
        page = owner_client.get(reverse("table", args=[start_game(game_type).pk])).content.decode()
        assert marker in page, game_type


def test_anonymous_visitor_sees_the_board_but_no_form(client, start_game):
    game = start_game("spades")
    page = client.get(reverse("table", args=[game.pk])).content.decode()
    assert "Ann" in Page(page).get("region", "Scores").text and "Record hand" not in page
    assert "Sign in to keep score." in Page(page).text
    # The header's link signs in too; this one comes back to the game.
    assert f"{reverse('login')}?next={reverse('table', args=[game.pk])}" in [
        link.attrs["href"] for link in Page(page).all("link", "Sign in")]


def test_member_follows_without_a_form(signed_in, member, start_game):
    page = signed_in(member).get(reverse("table", args=[start_game("smudge").pk])).content.decode()
    assert "Record hand" not in page
    assert "You are following this game; its scorekeepers enter the hands." in Page(page).text


def test_scorekeeper_gets_the_form(signed_in, scorekeeper, start_game):
    page = Page(signed_in(scorekeeper).get(reverse("table", args=[start_game("trumps").pk])).content.decode())
    assert page.get("button", "Record hand 1")


def test_private_league_game_is_404_for_a_stranger(signed_in, stranger, owner, client):
    from games.services import game_start

    private = league_create(name="Secret", by=owner, is_public=False)
    game = game_start(game_type="spades", seats=table_in(private, owner), by=owner, league=private)
    assert signed_in(stranger).get(reverse("table", args=[game.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("table", args=[game.pk])).status_code == 404


def test_unknown_game_is_404(owner_client):
    assert owner_client.get(reverse("table", args=[999999])).status_code == 404


@pytest.mark.parametrize("hands", [1, 12])
def test_table_page_runs_a_fixed_number_of_queries(owner_client, start_game, owner, hands,
                                                   django_assert_max_num_queries):
    game = start_game("spades", target=10_000)
    for _ in range(hands):
        hand_record(game=game, record=SPADES_HAND, by=owner)
    with django_assert_max_num_queries(7):
        response = owner_client.get(reverse("table", args=[game.pk]))
    assert response.status_code == 200
    assert response.content.decode().count('class="hand"') == hands


@pytest.mark.parametrize("hands", [1, 12])
def test_casual_game_table_page_queries(signed_in, owner, seats, hands, django_assert_max_num_queries):
    from games.services import game_start

    game = game_start(game_type="spades", seats=seats, by=owner, options={"target": 10_000})
    for _ in range(hands):
        hand_record(game=game, record=SPADES_HAND, by=owner)
    client = signed_in(owner)
    with django_assert_max_num_queries(7):
        assert client.get(reverse("table", args=[game.pk])).status_code == 200


def test_chart_draws_one_line_per_side_and_the_target(owner_client, start_game, owner):
    game = start_game("spades", target=300)
    hand_record(game=game, record=SPADES_HAND, by=owner)
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    assert page.count("<polyline") == 2
    assert "target 300" in page


def test_finished_game_announces_the_winner_and_offers_a_rematch(owner_client, start_game, owner):
    game = start_game("trumps", target=5)
    hand_record(game=game, record={"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False,
                                   "redoubled": False, "tricks": 8}, by=owner)
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    result = Page(page).within(Page(page).get("region", "Ann & Cat win!"))
    assert result.get("heading", level=2).name == "Ann & Cat win!"
    assert "Final score: Ann & Cat 6 · Ben & Dan 0 after 1 hand." in result.text and "Record hand" not in page
    assert f"rematch={game.pk}&" in result.get("link", "Rematch").attrs["href"]


def test_the_history_shows_each_correction_and_undo_with_who_when_why_and_the_entries(owner_client, start_game,
                                                                                    owner):
    from games.services import hand_correct, hand_undo

    game = start_game("spades", target=500)
    hand_record(game=game, record=SPADES_HAND, by=owner)
    hand_record(game=game, record=SPADES_HAND, by=owner)
    corrected = {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 5, "E": 4, "S": 3, "W": 1}}
    hand_correct(game=game, number=1, record=corrected, by=owner, reason="W's last trick was N's")
    hand_undo(game=game, by=owner, reason="dealt again")
    page = owner_client.get(reverse("table", args=[game.pk])).content.decode()
    hand_1 = page[page.index('id="hand-1"'):]
    assert "Corrected by <b>Owner D.</b>" in hand_1 and "“W&#x27;s last trick was N&#x27;s”" in hand_1
    assert "<del>Ann 3 (4) · Ben 4 (4) · Cat 4 (3) · Dan 2 (2)</del>" in hand_1
    assert "<ins>Ann 3 (5) · Ben 4 (4) · Cat 4 (3) · Dan 2 (1)</ins>" in hand_1
    undone = page[page.index('id="undone-2"'):page.index('id="hand-1"')]
    assert "undone" in undone and "Undone by <b>Owner D.</b>" in undone and "“dealt again”" in undone
    assert "<del>Ann 3 (4) · Ben 4 (4) · Cat 4 (3) · Dan 2 (2)</del>" in undone
    assert "How to read these lines" in page and "✓: the bid was made" in page

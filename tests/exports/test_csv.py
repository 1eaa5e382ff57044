"""CSV for a spreadsheet user: standings, a league's games and a game's hands, from the pages and the API."""

from __future__ import annotations

import pytest

from games.models import Player
from games.services import game_start, hand_correct, league_create

from .conftest import HAND, rows_of


def test_standings_csv_from_the_api_by_accept_header(as_owner, league, played):
    response = as_owner.get(f"/api/v1/leagues/{league.pk}/standings/", HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="thursday-club-standings.csv"'
    header, *lines = rows_of(response.getvalue())
    assert header[:7] == ["Game", "Position", "Player", "Played", "Won", "Lost", "Win rate %"]
    assert "Last played (UTC)" in header and "Skill" in header
    assert [line[:7] for line in lines] == [
        ["Spades", "1", "Ann", "1", "1", "0", "100.0"], ["Spades", "2", "Cat", "1", "1", "0", "100.0"],
        ["Spades", "3", "Ben", "1", "0", "1", "0.0"], ["Spades", "4", "Dan", "1", "0", "1", "0.0"],
    ]
    points_for = header.index("Points for")
    assert lines[0][points_for] == "144"


def test_partnerships_csv_with_format_parameter(anonymous, league, played):
    response = anonymous.get(f"/api/v1/leagues/{league.pk}/standings/?format=csv&table=partnerships&game_type=spades")
    header, *lines = rows_of(response.getvalue())
    assert header[2] == "Partners"
    assert [line[2] for line in lines] == ["Ann & Cat", "Ben & Dan"]


def test_the_csv_of_an_empty_league_is_its_header_line(client_for, owner):
    empty = league_create(name="Empty Club", by=owner)
    for url in (f"/api/v1/leagues/{empty.pk}/standings/?format=csv", f"/api/v1/games/?league={empty.pk}&format=csv",
                f"/leagues/{empty.slug}/standings.csv", f"/leagues/{empty.slug}/games.csv"):
        client = client_for(owner)
        client.force_login(owner)
        response = client.get(url)
        assert response.status_code == 200, url
        (header,) = rows_of(response.getvalue())
        assert header[0] == "Game"


def test_games_csv_one_line_per_game_oldest_first(as_owner, league, played):
    response = as_owner.get(f"/api/v1/games/?league={league.pk}", HTTP_ACCEPT="text/csv")
    header, first, second = rows_of(response.getvalue())
    assert header[:6] == ["Game", "Started (UTC)", "Finished (UTC)", "Game type", "League", "Status"]
    row = dict(zip(header, first, strict=True))
    assert row["Game"] == str(played["won"].pk) and row["Status"] == "Finished"
    assert (row["North"], row["East"], row["South"], row["West"]) == ("Ann", "Ben", "Cat", "Dan")
    assert (row["Side 1"], row["Side 1 points"], row["Side 2"], row["Side 2 points"]) == (
        "Ann & Cat", "144", "Ben & Dan", "-100")
    assert row["Winner"] == "Ann & Cat" and row["Hands"] == "2"
    assert row["Page"] == f"http://testserver/games/{played['won'].pk}/"
    assert len(row["Started (UTC)"]) == len("2026-03-05 19:30")
    assert dict(zip(header, second, strict=True))["Status"] == "In progress"


def test_hands_csv_names_sides_and_marks_corrections(client_for, owner, league, played):
    game = played["live"]
    hand_correct(game=game, number=1, record={**HAND, "tricks": {"N": 4, "E": 2, "S": 4, "W": 3}}, by=owner)
    client = client_for(owner)
    client.force_login(owner)
    for url in (f"/api/v1/games/{game.pk}/hands/?format=csv", f"/games/{game.pk}/hands.csv"):
        response = client.get(url)
        assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}-hands.csv"'
        header, line = rows_of(response.getvalue())
        row = dict(zip(header, line, strict=True))
        assert row["Hand"] == "1" and row["Dealer"] == "Ann"
        assert row["Ann & Cat points"] == "71" and row["Ben & Dan total"] == "50"
        assert row["Ann & Cat bags"] == "1" and row["Corrected"] == "yes"
        assert row["Entered by"] == "Owner D."  # a display name, never the login name
        assert row["What happened"]


def test_a_name_that_looks_like_a_formula_stays_text(as_owner, owner, league, seats):
    Player.objects.filter(pk=seats["N"]).update(name="=HYPERLINK(\"http://evil\")")
    game_start(game_type="spades", seats=seats, by=owner, league=league)
    header, line = rows_of(as_owner.get(f"/api/v1/games/?league={league.pk}&format=csv").getvalue())
    assert dict(zip(header, line, strict=True))["North"] == "'=HYPERLINK(\"http://evil\")"


def test_a_name_that_looks_like_a_formula_stays_text_in_the_hands_headers(client_for, owner, league, seats):
    Player.objects.filter(pk=seats["N"]).update(name='=HYPERLINK("http://x","y")')
    game = game_start(game_type="spades", seats=seats, by=owner, league=league)
    client = client_for(owner)
    client.force_login(owner)
    for url in (f"/api/v1/games/{game.pk}/hands/?format=csv", f"/games/{game.pk}/hands.csv"):
        header, *_ = rows_of(client.get(url).getvalue())
        sides = [cell for cell in header if "HYPERLINK" in cell]
        assert sides and all(cell.startswith("'=HYPERLINK") for cell in sides), (url, header)


def test_json_is_still_the_default(as_owner, league, played):
    response = as_owner.get(f"/api/v1/leagues/{league.pk}/standings/")
    assert response["Content-Type"] == "application/json"
    assert response.json()["game_types"][0]["game_type"] == "spades"


@pytest.mark.parametrize("ask", [{"HTTP_ACCEPT": "application/xml"}, {"format": "api"}])
def test_a_format_not_offered_gets_the_json_answer(as_owner, league, ask):
    response = as_owner.get(f"/api/v1/leagues/{league.pk}/standings/", ask)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json()["league"]["id"] == league.pk


@pytest.mark.parametrize("asked", ["xml", ""])
def test_a_format_the_api_does_not_know_is_a_bad_query(as_owner, league, asked):
    response = as_owner.get(f"/api/v1/leagues/{league.pk}/standings/?format={asked}")
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    assert response.json()["format"] == [f'"{asked}" is not a format offered here: one of json, csv']


@pytest.mark.parametrize("url", ["/api/v1/leagues/{league}/standings/?format=csv",
                                 "/api/v1/games/{game}/hands/?format=csv", "/leagues/{slug}/standings.csv",
                                 "/leagues/{slug}/games.csv", "/games/{game}/hands.csv"])
def test_a_private_league_csv_is_a_404_to_outsiders(client_for, stranger, member, private_league, played, url):
    url = url.format(league=private_league.pk, slug=private_league.slug, game=played["won"].pk)

    def as_user(user):
        client = client_for(user)
        if not url.startswith("/api/"):
            client.force_login(user)  # the pages sign in with a session
        return client.get(url)

    response = as_user(stranger)
    assert response.status_code == 404
    assert b"Ann" not in response.getvalue()
    assert as_user(member).status_code == 200  # members read


def test_an_error_asked_for_as_csv_is_a_problem_document(anonymous):
    response = anonymous.get("/api/v1/leagues/999/standings/", HTTP_ACCEPT="text/csv")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_found"


def test_the_csv_downloads_are_linked_from_the_league_page(client, league, played):
    page = client.get(f"/leagues/{league.slug}/").getvalue().decode()
    assert f"/leagues/{league.slug}/standings.csv?type=spades" in page
    assert f"/leagues/{league.slug}/games.csv" in page


def test_query_counts_do_not_grow_with_the_league(as_owner, league, played, start_game, owner,
                                                  django_assert_max_num_queries):
    for _ in range(5):
        start_game("spades")
    with django_assert_max_num_queries(8):
        as_owner.get(f"/api/v1/games/?league={league.pk}&format=csv")
    with django_assert_max_num_queries(8):
        as_owner.get(f"/api/v1/leagues/{league.pk}/standings/?format=csv")


@pytest.mark.parametrize("table, status", [("partnerships", 200), ("", 400), ("pairs", 400)])
def test_the_table_asked_for_is_checked_in_json_too(as_owner, league, table, status):
    response = as_owner.get(f"/api/v1/leagues/{league.pk}/standings/", {"table": table})
    assert response.status_code == status
    if status == 400:
        assert "table" in response.json()

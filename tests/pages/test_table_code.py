"""The table's code: the scorekeeper shows it, another phone opens the game with it, and it opens that game
and nothing else; a new code ends the old one at once."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.services import game_start, hand_record, league_create, player_create, player_link
from tests.conftest import join

pytestmark = pytest.mark.django_db

HAND = {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}


@pytest.fixture
def back_room(owner):
    """A private league's game, with the league's four players."""
    private = league_create(name="Back Room", by=owner, is_public=False)
    people = [player_create(name=name, by=owner, league=private) for name in ("Sol", "Tia", "Uma", "Vic")]
    game = game_start(game_type="thieving_stink", league=private, by=owner,
                      seats={seat: player.pk for seat, player in zip("NESW", people, strict=True)})
    return private, people, game


def join_link(game: Game) -> str:
    game.refresh_from_db()
    return reverse("join", args=[game.pk, game.table_token])


def scan(client, game: Game):
    """Open the game's code on ``client``'s phone; the answer after its redirect."""
    return client.get(join_link(game), follow=True)


def test_the_scorekeepers_page_shows_the_tables_code_and_nobody_elses_does(signed_in, owner, member, start_game):
    game = start_game("thieving_stink")
    page = signed_in(owner).get(reverse("table", args=[game.pk])).content.decode()
    link = re.search(r'id="table-link" value="([^"]+)"', page).group(1)
    game.refresh_from_db()
    assert link == f"http://testserver/games/{game.pk}/join/{game.table_token}/"
    assert reverse("table-code-qr", args=[game.pk]) in page
    assert game.table_token not in signed_in(member).get(reverse("table", args=[game.pk])).content.decode()


def test_the_code_is_a_qr_image_for_the_scorekeepers_only(signed_in, client, owner, member, stranger, back_room):
    _, _, game = back_room
    url = reverse("table-code-qr", args=[game.pk])
    image = signed_in(owner).get(url)
    assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
    assert "no-store" in image["Cache-Control"] and b"<svg" in image.content
    join(game.league, member, "member", owner)
    assert signed_in(member).get(url).status_code == 403
    assert signed_in(stranger).get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to sign in


def test_a_game_written_without_a_token_gets_one_when_its_scorekeeper_opens_it(owner_client, start_game):
    game = start_game("thieving_stink")
    Game.objects.filter(pk=game.pk).update(table_token="")  # as a bulk load writes it
    assert client_cannot_join_with("", game)
    owner_client.get(reverse("table", args=[game.pk]))
    game.refresh_from_db()
    assert len(game.table_token) >= 22
    assert owner_client.get(reverse("table", args=[game.pk])).context["join_link"].endswith(f"/{game.table_token}/")


def client_cannot_join_with(token: str, game: Game) -> bool:
    from django.test import Client

    return Client().get(f"/games/{game.pk}/join/{token or 'x'}/").status_code == 404


def test_a_phone_without_an_account_follows_the_game_with_the_code(client, back_room):
    _, _, game = back_room
    assert client.get(reverse("follow", args=[game.pk])).status_code == 404
    opened = scan(client, game)
    assert opened.redirect_chain == [(reverse("follow", args=[game.pk]), 302)]
    page = opened.content.decode()
    assert opened.status_code == 200 and "Where do you sit?" in page and "Sol" in page
    kept = client.cookies[f"table_{game.pk}"]
    assert kept["path"] == f"/games/{game.pk}/" and kept["httponly"] and kept["samesite"] == "Lax"
    assert client.get(reverse("live", args=[game.pk])).status_code == 200
    assert client.get(reverse("live-board", args=[game.pk])).status_code == 200


def test_the_code_opens_that_game_and_nothing_else(client, owner, back_room, start_game, seats):
    private, people, game = back_room
    scan(client, game)
    other_private = game_start(game_type="spades", league=private, by=owner,
                               seats={seat: player.pk for seat, player in zip("NESW", people, strict=True)})
    casual = game_start(game_type="spades", seats=seats, by=owner)
    closed = [
        reverse("table", args=[game.pk]), reverse("game-hands-csv", args=[game.pk]),
        reverse("table-code-qr", args=[game.pk]),
        reverse("follow", args=[other_private.pk]), reverse("live", args=[other_private.pk]),
        reverse("live-board", args=[other_private.pk]), reverse("table", args=[other_private.pk]),
        reverse("follow", args=[casual.pk]), reverse("league", args=[private.slug]),
        reverse("league-players", args=[private.slug]), reverse("player", args=[people[0].pk]),
        f"/api/v1/games/{game.pk}/", f"/api/v1/games/{game.pk}/hands/", f"/api/v1/leagues/{private.pk}/",
        f"/api/v1/players/{people[0].pk}/",
    ]
    for url in closed:
        assert client.get(url).status_code in (302, 401, 404), url
    assert client.get("/api/v1/games/").json()["count"] == 0
    home = client.get(reverse("home")).content.decode()
    assert "Back Room" not in home
    # Nor does it write: the hand entry is for the game's scorekeepers.
    assert client.post(reverse("hand-record", args=[game.pk]), {}).status_code in (302, 403, 404)
    assert client.post(reverse("table-code", args=[game.pk])).status_code == 302  # to sign in
    game.refresh_from_db()
    assert game.hand_count == 0


def test_a_pass_kept_for_one_game_does_not_open_another(client, owner, back_room):
    private, people, game = back_room
    other = game_start(game_type="spades", league=private, by=owner,
                       seats={seat: player.pk for seat, player in zip("NESW", people, strict=True)})
    scan(client, game)
    # The same signed value offered under the other game's name opens nothing.
    client.cookies[f"table_{other.pk}"] = client.cookies[f"table_{game.pk}"].value
    assert client.get(reverse("follow", args=[other.pk])).status_code == 404
    # Nor does the other game's address with this game's token.
    assert client.get(reverse("join", args=[other.pk, game.table_token])).status_code == 404


def test_a_forged_or_mistyped_code_opens_nothing(client, back_room):
    _, _, game = back_room
    game.refresh_from_db()
    assert client.get(reverse("join", args=[game.pk, game.table_token[:-1] + "x"])).status_code == 404
    assert client.get(reverse("join", args=[987654, game.table_token])).status_code == 404
    client.cookies[f"table_{game.pk}"] = f"{game.pk}:{game.table_token}:N"  # not signed by the server
    assert client.get(reverse("follow", args=[game.pk])).status_code == 404


def test_a_new_code_ends_the_old_one_at_once(client, owner, back_room):
    from django.test import Client

    _, _, game = back_room
    scorekeepers_phone = Client()
    scorekeepers_phone.force_login(owner)
    old_link = join_link(game)
    scan(client, game)
    assert client.get(reverse("follow", args=[game.pk])).status_code == 200
    board = client.get(reverse("live-board", args=[game.pk]))
    renewed = scorekeepers_phone.post(reverse("table-code", args=[game.pk]))
    assert renewed.status_code == 302
    refused = client.get(reverse("follow", args=[game.pk]))
    assert refused.status_code == 403 and "no longer opens the game" in refused.content.decode()
    # Even the question "has it changed?" with the version it last saw is refused, not a 304.
    assert client.get(reverse("live-board", args=[game.pk]), HTTP_IF_NONE_MATCH=board["ETag"]).status_code == 403
    assert client.get(reverse("live", args=[game.pk])).status_code == 403
    assert client.get(old_link).status_code == 404
    assert scan(client, game).status_code == 200  # the new code works


def test_only_the_games_scorekeepers_make_a_new_code(signed_in, owner, member, scorekeeper, start_game):
    game = start_game("thieving_stink")
    before = join_link(game)
    assert signed_in(member).post(reverse("table-code", args=[game.pk])).status_code == 403
    assert join_link(game) == before
    assert signed_in(scorekeeper).post(reverse("table-code", args=[game.pk])).status_code == 302
    assert join_link(game) != before


def test_a_player_linked_to_a_seat_gets_their_view_and_the_scorekeeper_the_entry(signed_in, owner, member, league,
                                                                                players, start_game):
    game = start_game("thieving_stink")
    player_link(league=league, player=players[1], user=member, by=owner)
    opened = scan(signed_in(member), game)
    assert opened.redirect_chain[-1][0] == reverse("follow", args=[game.pk])
    page = opened.content.decode()
    assert "You sit <b>East</b> (Ben): your side is <b>EW</b>." in page and "Where do you sit?" not in page
    assert scan(signed_in(owner), game).redirect_chain[-1][0] == reverse("table", args=[game.pk])


def test_the_code_carries_no_address_further_and_is_kept_by_no_cache(client, back_room):
    _, _, game = back_room
    opened = client.get(join_link(game))
    assert opened["Referrer-Policy"] == "no-referrer" and opened["Cache-Control"] == "no-store"


def test_a_hand_recorded_shows_on_the_followers_board(client, owner, back_room):
    _, _, game = back_room
    scan(client, game)
    hand_record(game=game, record=HAND, by=owner)
    assert 'data-total="EW">105<' in client.get(reverse("follow", args=[game.pk])).content.decode()

"""Every main page loads at phone and desktop sizes.

With SCREENSHOTS_DIR naming a folder each page is saved there as a picture: ``make screenshots`` makes
the README's (docs/screenshots/). A test run leaves them alone.
"""

import pytest

from games.models import Game
from games.services import game_start, hand_record, match_start
from tests.conftest import join

from .conftest import DESKTOP, PHONE, shoot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPADES = [
    {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}},
    {"bids": {"N": "nil", "E": 5, "S": 4, "W": 3}, "tricks": {"N": 0, "E": 5, "S": 4, "W": 4}},
    {"bids": {"N": 2, "E": 3, "S": 5, "W": 3}, "tricks": {"N": 3, "E": 2, "S": 5, "W": 3}},
    {"bids": {"N": 4, "E": 2, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 2, "S": 3, "W": 5}},
]
STINK = {"face_cards": {"NS": 9, "EW": 5}, "trump_stack": {"holder": "W", "size": 6}}
TRUMPS = {"declarer": "E", "bid": 8, "trump": "notrump", "doubled": True, "redoubled": False, "tricks": 9}


# Finished Spades games (to 100) that fill the league's tables: (N, E, S, W) by name, and the winning side.
SPADES_TO_100 = {
    "NS": {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}},
    "EW": {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}},
}
SPADES_RESULTS = [
    (("Ann", "Ben", "Cat", "Dan"), "NS"), (("Ann", "Eve", "Cat", "Fin"), "NS"), (("Ben", "Ann", "Dan", "Eve"), "EW"),
    (("Cat", "Dan", "Fin", "Ben"), "EW"), (("Eve", "Ann", "Fin", "Cat"), "EW"), (("Ann", "Dan", "Ben", "Cat"), "EW"),
]


@pytest.fixture
def club(league, owner, seats, players, make_user):
    """A league with a game in progress, finished games of each kind, a scorekeeper, and standings."""
    from games.services import player_create

    join(league, make_user("sam"), "scorekeeper", owner)
    people = {player.name: player.pk for player in players}
    people.update({name: player_create(name=name, by=owner, league=league).pk for name in ("Eve", "Fin")})
    for names, winner in SPADES_RESULTS:
        seating = {seat: people[name] for seat, name in zip("NESW", names, strict=True)}
        game = game_start(game_type="spades", seats=seating, by=owner, league=league, options={"target": 100})
        for _ in range(2):
            hand_record(game=game, record=SPADES_TO_100[winner], by=owner)
    live = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 300})
    for record in SPADES:
        hand_record(game=live, record=record, by=owner)
    done = game_start(game_type="thieving_stink", seats=seats, by=owner, league=league, options={"target": 250})
    for _ in range(3):
        hand_record(game=done, record=STINK, by=owner)
    match = match_start(game_type="trumps", seats=seats, by=owner, league=league, options={"target": 10})
    hand_record(game=Game.objects.get(match=match), record=TRUMPS, by=owner)
    return {"live": live, "done": done}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_main_pages(browser, live_server, club, league, players, size):
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, device_scale_factor=2 if size == "phone" else 1,
                                  is_mobile=size == "phone", has_touch=size == "phone", base_url=live_server.url)
    page = context.new_page()
    try:
        sign_in(page, "owner")
        for name, url in [
            ("home", "/"),
            ("table", f"/games/{club['live'].pk}/"),
            ("game-over", f"/games/{club['done'].pk}/"),
            ("spectator", f"/games/{club['live'].pk}/live/"),
            ("league", f"/leagues/{league.slug}/"),
            ("player", f"/players/{players[0].pk}/"),
            ("new-game", f"/games/new/?type=spades&league={league.slug}"),
        ]:
            response = page.goto(url)
            assert response is not None and response.ok, f"{name} ({url}): {response and response.status}"
            shoot(page, f"{name}-{size}")
    finally:
        context.close()

"""A league with a room full of players, and nights of it started through the services."""

from __future__ import annotations

import pytest

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max")


@pytest.fixture
def room(owner, league):
    """Thirteen players of the league, by name."""
    from games.services import player_create

    return {name: player_create(name=name, by=owner, league=league) for name in NAMES}


@pytest.fixture
def start_night(owner, league):
    """Start a night of the league: ``start_night(hands=8)``, ``start_night(round_end="time", minutes=20)``."""
    from games.services import night_start

    def start(game_type="spades", **settings):
        settings.setdefault("round_end", "hands")
        if settings["round_end"] == "hands":
            settings.setdefault("hands", 2)
        return night_start(league=league, by=owner, game_type=game_type, **settings)

    return start


@pytest.fixture
def check_in(owner, room):
    """Check players in by name, in the order given: ``check_in(night, "Ann", "Ben")``."""
    from games.services import night_check_in

    def arrive(night, *names, by=owner):
        return [night_check_in(night=night, by=by, player=room[name]) for name in names]

    return arrive


# A Spades hand that NS make and EW are set on: NS 60 + 1 bag, EW -70.
NS_HAND = {"bids": {"N": 3, "E": 4, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
EW_HAND = {"bids": {"N": 4, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}

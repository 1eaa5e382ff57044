"""Home: my games in progress first (one tap back to the table), then my leagues and recent results."""

from __future__ import annotations

from django.shortcuts import render

from games import selectors
from games.nights import nights_of
from games.summary import game_summary

from .common import side_rows
from .night_room import night_rows


def game_rows(games):
    """A row per game for the lists of games: the game, and its sides (names, totals, winner)."""
    return [{"game": game, "sides": side_rows(game, game_summary(game))} for game in games]


def home(request):
    user = request.user
    mine = selectors.scorable_games(user=user, limit=20)
    return render(request, "home.html", {
        "in_progress": game_rows(mine),
        "my_leagues": selectors.my_leagues(user=user),
        "nights": night_rows(nights_of(user=user)),
        "leagues": selectors.leagues_for(user=user)[:20],
        "results": game_rows(selectors.finished_games(user=user, limit=10)),
        "invitations": selectors.invitations_for(user=user),
    })

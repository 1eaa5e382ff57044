"""Home: my games in progress first (one tap back to the table), then my leagues and recent results."""

from __future__ import annotations

from django.shortcuts import render

from games import selectors
from games.forms.base import side_names


def game_rows(games):
    return [{"game": game, "names": side_names(game, ("NS", "EW"))} for game in games]


def home(request):
    user = request.user
    mine = selectors.scorable_games(user=user, limit=20)
    return render(request, "home.html", {
        "in_progress": game_rows(mine),
        "my_leagues": selectors.my_leagues(user=user),
        "leagues": selectors.leagues_for(user=user)[:20],
        "results": game_rows(selectors.finished_games(user=user, limit=10)),
    })

"""The site's pages: thin views over selectors (reads) and services (writes)."""

from __future__ import annotations

from django.shortcuts import render

from games import selectors


def home(request):
    return render(request, "home.html", {"recent": selectors.recent_games(user=request.user, limit=10),
                                         "leagues": selectors.leagues_for(user=request.user)})

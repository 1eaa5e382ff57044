"""The read side: queries for pages and the API, each a fixed number of queries."""

from __future__ import annotations

from django.db.models import QuerySet

from games import policy
from games.models import Game, League

SEATED = ("north", "east", "south", "west")


def recent_games(*, user, limit: int = 20) -> list[Game]:
    return list(policy.visible_games(user).select_related("league", *SEATED).order_by("-started_at")[:limit])


def leagues_for(*, user) -> QuerySet[League]:
    return policy.visible_leagues(user).order_by("name")

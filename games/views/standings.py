"""The league tables on the pages: the top of each on the league page, the whole of one a page at a time.

Nothing is counted here: the standings task computes the tables, ``games.standings.selectors`` reads a
page of one in the order the visitor chose, and this module only labels the lines for display. The
place shown beside a line is its position in that order, so it always agrees with the rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from games.errors import InvalidInput
from games.models import League, Season
from games.rules import RULESETS, rulesets
from games.standings.selectors import (
    ALL_TIME,
    CURRENT,
    SORTS,
    chosen_season,
    in_matches,
    season_asked,
    table_page,
    table_sizes,
)

from .common import visible_league_or_404

# Lines of each table on the league page; the rest are a link away.
TOP = 10
# Lines per page of a whole table.
PAGE_SIZE = 50
TABLES = ("players", "partnerships")
# The orders a table can be sorted in, as the links that sort it say them.
SORT_LABELS = (("won", "Won"), ("played", "Played"), ("rate", "Win rate"), ("margin", "Margin"), ("rating", "Skill"),
               ("name", "Name"))


def chosen_sort(request) -> str:
    sort = request.GET.get("sort")
    return sort if sort in SORTS else "won"


def season_or_404(request, league: League, seasons: list[Season] | None = None) -> Season | None:
    """The season asked for (``?season=``: an id, ``all`` or ``current``; the current one by default, else all
    time): one query, or none when the league's ``seasons`` are already read. A season the league does not
    have is a 404."""
    try:
        if seasons is None:
            return chosen_season(league=league, season=request.GET.get("season"))
        asked = season_asked(request.GET.get("season"))
    except InvalidInput:
        raise Http404("No such season") from None
    if asked == ALL_TIME:
        return None
    found = next((season for season in seasons
                  if (season.is_current if asked == CURRENT else season.pk == asked)), None)
    if found is None and asked != CURRENT:
        raise Http404("No such season")
    return found


def season_query(season: Season | None, *, default: bool) -> str:
    """The query that keeps the page on this season (or on all time) as the visitor moves around it; empty
    when it is the one the page shows by default (``default``), so a league without seasons keeps its links."""
    if default:
        return ""
    return f"season={season.pk if season is not None else ALL_TIME}"


def with_season(query: str, season_query: str) -> str:
    return f"{query}&{season_query}" if season_query else query


def season_picker(league: League, season: Season | None, seasons: list[Season]) -> list[dict[str, Any]]:
    """A link per season (latest first) and one for all time, the one shown marked."""
    picks = [{"query": f"season={choice.pk}", "name": choice.name, "current": season is not None and
              season.pk == choice.pk, "now": choice.is_current} for choice in seasons]
    return picks + [{"query": f"season={ALL_TIME}", "name": "All time", "current": season is None, "now": False}]


def signed(value: float, digits: int = 1) -> str:
    """``+1.2``, ``−0.7`` (a real minus sign), ``0.0``."""
    if round(value, digits) == 0:
        return f"{0:.{digits}f}"
    return f"{value:+.{digits}f}".replace("-", "−")


def line(entry: dict[str, Any]) -> dict[str, Any]:
    """One line as the templates show it."""
    shown = {**entry, "rate_pct": round(100 * entry["win_rate"]), "margin": signed(entry["average_margin"])}
    if "player" in entry:
        shown["name"] = entry["player"]["name"]
        rating = entry.get("rating")
        shown["skill"] = f"{rating['ordinal']:.1f}".replace("-", "−") if rating else ""
    else:
        shown["name"] = " & ".join(person["name"] for person in entry["players"])
    return shown


def standings_view(*, league: League, game_type: str | None, sort: str,
                   latest_finish: datetime | None, season: Season | None = None,
                   seasons: list[Season] | None = None) -> dict[str, Any]:
    """The top of the tables of one game type (the one asked for, else the first with results), all time or
    of ``season``. Three queries.

    ``latest_finish``: when the league's last game finished; tables computed before it (if it finished within
    the season shown) are still being updated by a worker, and say so.
    """
    sizes = table_sizes(league=league, season=season)
    seasons = seasons or []
    shown = season_query(season, default=season == next((each for each in seasons if each.is_current), None))
    chosen = game_type if game_type in RULESETS else next(iter(sizes), next(iter(RULESETS)))
    size = sizes.get(chosen, {"players": 0, "partnerships": 0, "computed_at": None})
    computed_at = max((entry["computed_at"] for entry in sizes.values()), default=None)
    tables = {
        table: [line(entry) for entry in table_page(league=league, game_type=chosen, sort=sort, limit=TOP,
                                                    partnerships=table == "partnerships", season=season)]
        if size[table] else []
        for table in TABLES
    }
    return {
        "game_type": chosen,
        "tabs": [{"code": ruleset.game_type, "name": ruleset.name, "has_results": ruleset.game_type in sizes,
                  "current": chosen == ruleset.game_type} for ruleset in rulesets()],
        **tables,
        "sizes": size,
        "more": {table: size[table] > TOP for table in TABLES},
        "links": {table: with_season(f"{reverse('league-table', args=[league.slug, chosen, table])}?sort={sort}",
                                     shown) for table in TABLES},
        "computed_at": computed_at,
        "updating": latest_finish is not None and (season is None or season.contains(
            timezone.localtime(latest_finish, timezone.get_default_timezone()).date()))
        and (computed_at is None or computed_at < latest_finish),
        "matches": in_matches(chosen),
        "season": season,
        "season_query": shown,
        "seasons": season_picker(league, season, seasons),
        "sort_query": with_season(f"type={chosen}", shown) + "&",
        "sort_labels": SORT_LABELS,
    }


@require_GET
def league_table(request, slug: str, game_type: str, table: str):
    """One whole table (players or partnerships) of a league and game type, a page at a time."""
    league = visible_league_or_404(request, slug)
    if game_type not in RULESETS or table not in TABLES:
        raise Http404("No such table")
    season = season_or_404(request, league)
    sort = chosen_sort(request)
    partnerships = table == "partnerships"
    sizes = table_sizes(league=league, season=season).get(game_type, {"players": 0, "partnerships": 0, "computed_at": None})
    page = Paginator(range(sizes[table]), PAGE_SIZE).get_page(request.GET.get("page"))
    lines = [line(entry) for entry in table_page(league=league, game_type=game_type, partnerships=partnerships,
                                                 sort=sort, offset=page.start_index() - 1 if sizes[table] else 0,
                                                 limit=PAGE_SIZE, season=season)]
    shown = season_query(season, default="season" not in request.GET)
    standings = {"game_type": game_type, table: lines, "matches": in_matches(game_type),
                 "sort_query": f"{shown}&" if shown else "", "season": season, "season_query": shown,
                 "sort_labels": SORT_LABELS, "computed_at": sizes["computed_at"]}
    return render(request, "leagues/table.html", {
        "league": league, "table": table, "sort": sort, "page": page, "standings": standings,
        "game_type_name": RULESETS[game_type].name, "count": sizes[table],
    })

"""Reading stored standings, ratings and figures: plain dicts ready for a serializer or a template.

Each selector runs a fixed number of queries whatever the size of the league (see the
docstrings). They read only what the standings task stored; nothing is computed from games here.
"""

from __future__ import annotations

import json
import operator
import re
from collections import defaultdict
from datetime import datetime
from functools import lru_cache, reduce
from typing import Any

from django.db import connection
from django.db.models import (
    Case,
    F,
    JSONField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import JSONObject, Lower

from games import statements
from games.errors import InvalidInput, NoSuchThing
from games.models import (
    League,
    Player,
    PlayerFigures,
    PlayerRating,
    RatingChange,
    Season,
    Standing,
    game_type_name,
)
from games.models.standings import SeasonWatermark, StandingsWatermark
from games.rules import RULESETS, game_order, ruleset_class, shown

# ``?season=``: every result of the league, or the season containing today.
ALL_TIME, CURRENT = "all", "current"
SEASON_ID = re.compile(r"[1-9][0-9]{0,17}")


def season_ref(season: Season | None) -> dict[str, Any] | None:
    if season is None:
        return None
    return {"id": season.pk, "name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on,
            "is_current": season.is_current}


def season_asked(season: str | int | None) -> str | int:
    """``?season=`` read: a season's id, ``all`` or ``current`` (also when none is given). Raises
    ``InvalidInput`` (field ``season``) for anything else."""
    if season is None or season == "":
        return CURRENT
    text = str(season)
    if text in (ALL_TIME, CURRENT):
        return text
    if not SEASON_ID.fullmatch(text):
        raise InvalidInput(f"season is a season's id, {ALL_TIME!r} or {CURRENT!r}, not {shown(text)}",
                           field="season")
    return int(text)


def seasons_asked(league: League | OuterRef, asked: str | int) -> QuerySet[Season]:
    """The season ``asked`` (of :func:`season_asked`, not ``all``) of the league, with ``standings_at``: when its
    rows were last written. ``league`` may be an ``OuterRef``, to read the season with its league."""
    seasons = Season.objects.filter(league=league).annotate(
        standings_at=Subquery(SeasonWatermark.objects.filter(season=OuterRef("pk")).values("computed_at")[:1]))
    return seasons.current() if asked == CURRENT else seasons.filter(pk=asked)


def no_season(league: League, asked: str | int) -> NoSuchThing:
    return NoSuchThing(f"{league.name} has no season {asked}", field="season")


def chosen_season(*, league: League, season: str | int | None) -> Season | None:
    """The season a reader asked for (``?season=``): an id of one of the league's seasons, ``all`` (None: all
    time) or ``current``; without one, the current season, or all time when no season contains today. One
    query (none for ``all``); the season comes with ``standings_at``, when its rows were last written.

    Raises ``InvalidInput`` (field ``season``) for anything else; ``NoSuchThing`` (a 404 in the API) for a season
    the league does not have, a season of another league included.
    """
    asked = season_asked(season)
    if asked == ALL_TIME:
        return None
    found = seasons_asked(league, asked).first()
    if found is None and asked != CURRENT:
        raise no_season(league, asked)
    return found


def league_seasons(*, league: League) -> list[Season]:
    """The league's seasons, the latest first. One query."""
    return list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))


def league_ref(league: League) -> dict[str, Any]:
    return {"id": league.pk, "slug": league.slug, "name": league.name}


def rating_figure(rating: PlayerRating) -> dict[str, Any]:
    return {"mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3), "ordinal": round(rating.ordinal, 3),
            "rank": rating.rank, "rated": rating.rated}


STANDING_COLUMNS = ("game_type", "player_id", "player__name", "partner_id", "partner__name", "played", "won",
                    "lost", "win_rate", "points_for", "points_against", "average_margin", "streak", "last_played",
                    "matches_played", "matches_won", "match_points", "computed_at")


def table_order(entry: dict[str, Any]) -> tuple:
    names = entry["player"]["name"] if "player" in entry else " & ".join(p["name"] for p in entry["players"])
    return (-entry["won"], -entry["win_rate"], -entry["average_margin"], names.casefold(), entry["key"])


def in_matches(game_type: str) -> bool:
    """Whether the game type is played in matches (its lines then carry match figures)."""
    return game_type in RULESETS and ruleset_class(game_type).match_games > 0


def league_standings(*, league: League, game_type: str | None = None, season: Season | None = None) -> dict[str, Any]:
    """The league's tables, per game type: players (with rating) and partnerships. Two queries.

    ::

        {"league": {"id", "slug", "name"}, "computed_at": datetime | None,
         "game_types": [{"game_type": "spades", "name": "Spades",
                         "players": [{"player": {"id", "name"}, "played", "won", "lost", "win_rate",
                                      "points_for", "points_against", "average_margin", "streak",
                                      "last_played", "rating": {"mu", "sigma", "ordinal", "rank", "rated"}
                                      | None, "matches": {"played", "won", "points"} | None}, ...],
                         "partnerships": [{"players": [{"id", "name"}, {"id", "name"}], "played", ...,
                                           "last_played"}, ...]}, ...]}

    Tables are ordered by games won, then win rate, then average margin. ``matches`` is given for
    game types played in matches (Trumps) only. A player's ``{"id", "name"}`` is one dict shared by all their
    lines: read it, do not change it. With ``game_type``, only that game type is listed (even if
    empty); without, every game type the league has results in, in the usual order.
    """
    # Plain rows (values_list), not model instances: a big league has tens of thousands of lines.
    rows = Standing.objects.filter(league=league, season=season).order_by()
    ratings = PlayerRating.objects.filter(league=league, season=season).order_by()
    if game_type is not None:
        rows, ratings = rows.filter(game_type=game_type), ratings.filter(game_type=game_type)
    rating_of = {
        (kind, player): {"mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(value, 3), "rank": rank,
                         "rated": rated}
        for kind, player, mu, sigma, value, rank, rated in ratings.values_list(
            "game_type", "player_id", "mu", "sigma", "ordinal", "rank", "rated"
        )
    }

    tables: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: {"players": [], "partnerships": []})
    computed_at: datetime | None = None
    people: dict[int, dict[str, Any]] = {}  # one {"id", "name"} per player, shared by their lines
    for (kind, player, player_name, partner, partner_name, played, won, lost, win_rate, points_for, points_against,
         average_margin, streak, last_played, matches_played, matches_won, match_points,
         row_computed_at) in rows.values_list(*STANDING_COLUMNS):
        if computed_at is None or row_computed_at > computed_at:
            computed_at = row_computed_at
        someone = people.get(player) or people.setdefault(player, {"id": player, "name": player_name})
        if partner is None:
            tables[kind]["players"].append({
                "player": someone, "played": played, "won": won, "lost": lost, "win_rate": round(win_rate, 4),
                "points_for": points_for, "points_against": points_against,
                "average_margin": round(average_margin, 2), "streak": streak, "last_played": last_played,
                "rating": rating_of.get((kind, player)),
                "matches": {"played": matches_played, "won": matches_won, "points": match_points}
                if in_matches(kind) else None,
                "key": player,
            })
        else:
            other = people.get(partner) or people.setdefault(partner, {"id": partner, "name": partner_name})
            tables[kind]["partnerships"].append({
                "players": [someone, other], "played": played, "won": won, "lost": lost,
                "win_rate": round(win_rate, 4), "points_for": points_for, "points_against": points_against,
                "average_margin": round(average_margin, 2), "streak": streak, "last_played": last_played,
                "key": (player, partner),
            })

    listed = [game_type] if game_type is not None else [kind for kind in RULESETS if kind in tables]
    game_types = []
    for kind in listed:
        table = tables[kind]
        for entries in table.values():
            entries.sort(key=table_order)
            for entry in entries:
                del entry["key"]
        game_types.append({"game_type": kind, "name": game_type_name(kind), **table})
    return {"league": league_ref(league), "season": season_ref(season), "computed_at": computed_at,
            "game_types": game_types}


# The orders a table can be read in: each column sorts first, the table's own order breaks ties.
# ``rating`` applies to players only (a partnership has no rating).
TABLE_ORDER = ("-won", "-win_rate", "-average_margin", Lower("player__name"), Lower("partner__name"), "player_id",
               "partner_id")
SORTS: dict[str, tuple] = {
    "won": (),
    "played": ("-played",),
    "rate": ("-win_rate",),
    "margin": ("-average_margin",),
    "rating": (F("rating_ordinal").desc(nulls_last=True),),
    "name": (Lower("player__name"), Lower("partner__name")),
}
PAGE_COLUMNS = ("player_id", "player__name", "partner_id", "partner__name", "played", "won", "lost", "win_rate",
                "points_for", "points_against", "average_margin", "streak", "last_played", "matches_played",
                "matches_won", "match_points")


def table_sizes(*, league: League, season: Season | None = None) -> dict[str, dict[str, Any]]:
    """Per game type with results: how many player and partnership lines, and when the tables were last brought up
    to date (the scope's watermark, which the standings task keeps them in). One query. ``{"spades": {"players":
    220, "partnerships": 2314, "computed_at": datetime}, ...}``, in the usual order of game types."""
    marks = (StandingsWatermark.objects.filter(league=league) if season is None
             else SeasonWatermark.objects.filter(season=season))
    found = marks.values_list("table_sizes", "computed_at").first()
    if found is None:
        return {}
    sizes, computed_at = found
    return {kind: {"players": sizes[kind][0], "partnerships": sizes[kind][1], "computed_at": computed_at}
            for kind in sorted(sizes, key=game_order) if sum(sizes[kind])}


def table_page(*, league: League, game_type: str, partnerships: bool = False, sort: str = "won", offset: int = 0,
               limit: int | None = None, season: Season | None = None) -> list[dict[str, Any]]:
    """Lines ``offset`` to ``offset + limit`` of one league table, in the order ``sort`` (a key of
    :data:`SORTS`; ``rating`` applies to players only). One query, however long the table.

    Each line has the shape of a :func:`league_standings` line, plus ``place``: its position in this
    order (1 is first), so a page of the table says where its lines stand in the whole of it.
    """
    rows = Standing.objects.filter(league=league, season=season, game_type=game_type,
                                   partner__isnull=not partnerships)
    if sort not in SORTS or (partnerships and sort == "rating"):
        sort = "won"
    if not partnerships:
        rows = with_ratings(rows, league, game_type, season, ordinal=sort == "rating")
    rows = rows.order_by(*SORTS[sort], *TABLE_ORDER).values_list(
        *PAGE_COLUMNS, *(() if partnerships else RATING_COLUMNS))
    rows = rows[offset:] if limit is None else rows[offset:offset + limit]
    matches = in_matches(game_type)
    return [page_line(place, values, partnerships, matches) for place, values in enumerate(rows, start=offset + 1)]


def ratings_of(league: League, game_type: str | F, season: Season | None = None) -> QuerySet:
    """The rating of each line's player (a subquery's rows: filter them with ``[:1]``)."""
    return PlayerRating.objects.filter(league=league, season=season, game_type=game_type,
                                       player=OuterRef("player_id"))


RATING_FIELDS = ("mu", "sigma", "ordinal", "rank", "rated")
# A line's rating, read as one JSON object: one look-up of the rating per line rather than one per figure (a page
# of every table is some hundreds of lines, and the database plans and runs each subquery for each).
RATING_COLUMNS = ("rating",)


def with_ratings(rows: QuerySet, league: League, game_type: str | None, season: Season | None = None, *,
                 ordinal: bool = False) -> QuerySet:
    """Lines annotated with their player's rating (``rating``: an object of ``RATING_FIELDS``, or None), so a page
    of lines needs no second query; and ``rating_ordinal`` alone, with ``ordinal``, to order them by it."""
    ratings = ratings_of(league, OuterRef("game_type") if game_type is None else game_type, season)
    rated = ratings.values(rating=JSONObject(**{name: name for name in RATING_FIELDS}))[:1]
    rows = rows.annotate(rating=Subquery(rated, output_field=JSONField()))
    if ordinal:
        rows = rows.annotate(rating_ordinal=Subquery(ratings.values("ordinal")[:1]))
    return rows


def page_line(place: int, values: tuple, partnerships: bool, matches: bool) -> dict[str, Any]:
    """A line of a table read with ``PAGE_COLUMNS`` (and the rating, for players), in the selectors' shape."""
    (player, player_name, partner, partner_name, played, won, lost, win_rate, points_for, points_against,
     average_margin, streak, last_played, matches_played, matches_won, match_points, *rated) = values
    line = {"place": place, "played": played, "won": won, "lost": lost, "win_rate": round(win_rate, 4),
            "points_for": points_for, "points_against": points_against,
            "average_margin": round(average_margin, 2), "streak": streak, "last_played": last_played}
    if partnerships:
        line["players"] = [{"id": player, "name": player_name}, {"id": partner, "name": partner_name}]
        return line
    return {"player": {"id": player, "name": player_name}, **line, "rating": rating_of_row(rated),
            "matches": {"played": matches_played, "won": matches_won, "points": match_points} if matches else None}


def standings_page(*, league: League, game_type: str | None = None, page: int = 1,
                   page_size: int = 50, season: Season | None = None) -> dict[str, Any]:
    """Page ``page`` of every table of the league (or of one game type): lines ``(page - 1) * page_size + 1``
    to ``page * page_size`` of each, in the tables' own order. Two queries, whatever the league's size: the
    tables' sizes, then the page of each, each read in order from its index (the lines of every table are
    not numbered, nor all sorted, to give one page).

    The shape of :func:`league_standings` (its lines with their ``place`` in the table), plus ``sizes``:
    per game type listed, how many lines each of its tables has, and ``more``: whether any table goes on
    past this page.
    """
    offset = (page - 1) * page_size
    found = table_sizes(league=league, season=season)
    listed = [game_type] if game_type is not None else list(found)
    sizes = {kind: {table: found.get(kind, {}).get(table, 0) for table in ("players", "partnerships")}
             for kind in listed}
    computed_at = max((found[kind]["computed_at"] for kind in listed if kind in found), default=None)
    tables: dict[str, dict[str, list[dict[str, Any]]]] = {kind: {"players": [], "partnerships": []}
                                                          for kind in listed}
    wanted = [(kind, table == "partnerships") for kind in listed for table in ("players", "partnerships")
              if sizes[kind][table] > offset]
    for row in pages_of_tables(league, season, wanted, offset, page_size):
        kind, partnerships, values = row[0], row[1] == 1, row[2:2 + len(PAGE_COLUMNS) + len(RATING_COLUMNS)]
        lines = tables[kind]["partnerships" if partnerships else "players"]
        lines.append(page_line(offset + len(lines) + 1, values, partnerships, in_matches(kind)))
    return {
        "league": league_ref(league), "season": season_ref(season), "computed_at": computed_at,
        "game_types": [{"game_type": kind, "name": game_type_name(kind), **tables[kind]} for kind in listed],
        "sizes": sizes,
        "more": any(size > offset + page_size for entry in sizes.values() for size in entry.values()),
    }


def pages_of_tables(league: League, season: Season | None, tables: list[tuple[str, bool]], offset: int,
                    limit: int) -> list[tuple]:
    """Lines ``offset`` to ``offset + limit`` of each table (game type, partnerships or not), in one query: per
    table ``(game_type, 1 for partnerships else 0, *PAGE_COLUMNS, *RATING_COLUMNS, ...)``, in the table's order.

    On PostgreSQL each table's page is read in order from its index (``players_in_order``...), without sorting
    the rest of the table, and the pages are put together (``UNION ALL``); elsewhere the lines of each page are
    picked by id.
    """
    if not tables:
        return []
    if connection.features.supports_slicing_ordering_in_compound:
        sql, params = pages_statement(league.pk, season.pk if season is not None else None, tuple(tables), offset,
                                      limit)
        with statements.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    pages = [page_of_table(league, season, kind, partnerships) for kind, partnerships in tables]
    picked = reduce(operator.or_, (Q(pk__in=page.order_by(*PAGE_ORDER).values("pk")[offset:offset + limit])
                                   for page in pages))
    return list(page_of_table(league, season, None, None).filter(picked).order_by("game_type", "table", *PAGE_ORDER))


@lru_cache(maxsize=256)
def pages_statement(league_id: int, season_id: int | None, tables: tuple[tuple[str, bool], ...], offset: int,
                    limit: int) -> tuple[str, tuple]:
    """The SQL and values of :func:`pages_of_tables` on PostgreSQL, built by the ORM once for each league, season,
    tables and page and then kept: building and compiling the union of a page of eight tables took the ORM twice
    as long (17 ms at 100,000 games) as PostgreSQL took to plan and run it. Nothing in it depends on the rows, only
    on these arguments. Sent as it is, its rows are the ORM's but for the rating, which comes as JSON text."""
    league, season = League(pk=league_id), Season(pk=season_id) if season_id is not None else None
    pages = [page_of_table(league, season, kind, partnerships) for kind, partnerships in tables]
    cut = [page.order_by(*PAGE_ORDER)[offset:offset + limit] for page in pages]
    # One table: its page, already in order (a sliced query cannot be ordered again).
    query = cut[0] if len(cut) == 1 else cut[0].union(*cut[1:], all=True).order_by("game_type", "table", *PAGE_ORDER)
    sql, params = query.query.get_compiler(connection=connection).as_sql()
    return sql, tuple(params)


# The tables' own order (``TABLE_ORDER``), by the columns a page of a table is read with.
PAGE_ORDER = ("-won", "-win_rate", "-average_margin", "name_order", "partner_order", "player_id", "partner_id")


def page_of_table(league: League, season: Season | None, game_type: str | None,
                  partnerships: bool | None) -> QuerySet:
    """The lines of one table (of every table, with None), read as :func:`pages_of_tables` gives them."""
    rows = Standing.objects.filter(league=league, season=season)
    if game_type is not None:
        rows = rows.filter(game_type=game_type)
    if partnerships is not None:
        rows = rows.filter(partner__isnull=not partnerships)
    if partnerships:
        rows = rows.annotate(rating=Value(None, output_field=JSONField()))
    else:
        rows = with_ratings(rows, league, game_type, season)
    table = Value(1) if partnerships else Value(0) if partnerships is not None else Case(
        When(partner__isnull=True, then=Value(0)), default=Value(1))
    return rows.annotate(table=table, name_order=Lower("player__name"), partner_order=Lower("partner__name")
                         ).values_list("game_type", "table", *PAGE_COLUMNS, *RATING_COLUMNS, "name_order",
                                       "partner_order")


def rating_of_row(values: list) -> dict[str, Any] | None:
    """A rating read with ``RATING_COLUMNS`` (None when the player has none)."""
    (rating,) = values
    if isinstance(rating, str):  # SQLite's JSON of a subquery comes as its text, and so does a kept statement's
        rating = json.loads(rating)
    if rating is None:
        return None
    mu, sigma, ordinal, rank, rated = (rating[name] for name in RATING_FIELDS)
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(ordinal, 3), "rank": rank, "rated": rated}


def in_leagues(queryset: QuerySet, leagues: QuerySet[League] | None,
               season: Season | str | None = None) -> QuerySet:
    """Limit to the leagues a viewer may see (a subquery, so no extra query), and to one scope: all time
    (``season`` None), one season, or (``"current"``) the season of each league containing today."""
    if season == CURRENT:
        queryset = queryset.filter(season__in=Season.objects.current().values("pk"))
    else:
        queryset = queryset.filter(season=season)
    return queryset if leagues is None else queryset.filter(league__in=leagues.values("pk"))


def player_ratings(*, player: Player, leagues: QuerySet[League] | None = None, history: bool = True,
                   season: Season | str | None = None, ordinals_only: bool = False) -> list[dict[str, Any]]:
    """The player's rating in each league and game type, with its history. Two queries (one without history).

    ``leagues``: only these leagues (e.g. ``policy.visible_leagues(user)``); ``season``: the ratings of one
    season, or (``"current"``) of each league's current season; all time without. ::

        [{"league": {"id", "slug", "name"}, "game_type": "spades", "mu", "sigma", "ordinal", "rank",
          "rated", "history": [{"sequence", "played_at", "game", "match", "mu", "sigma", "ordinal"}, ...]},
         ...]

    ``history`` is oldest first; ``game`` or ``match`` is the id of the result that moved the
    rating (a Trumps match is rated as a whole). With ``ordinals_only`` each point is ``{"ordinal"}`` alone (what
    a chart of it draws: a busy player's thousands of points read and built the faster).
    """
    ratings = in_leagues(PlayerRating.objects.filter(player=player), leagues, season).select_related(
        "league", "season")
    ratings = sorted(ratings, key=lambda rating: (rating.league.name, rating.league_id,
                                                  game_order(rating.game_type)))
    points: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    if history and ratings:
        changes = in_leagues(RatingChange.objects.filter(player=player), leagues, season).order_by(
            "league_id", "game_type", "sequence")
        if ordinals_only:
            for league_id, game_type, value in changes.values_list("league_id", "game_type", "ordinal"):
                points[(league_id, game_type)].append({"ordinal": round(value, 3)})
        else:
            for league_id, game_type, sequence, played_at, game_id, match_id, mu, sigma, value in changes.values_list(
                    "league_id", "game_type", "sequence", "played_at", "game_id", "match_id", "mu", "sigma", "ordinal"):
                points[(league_id, game_type)].append({
                    "sequence": sequence, "played_at": played_at, "game": game_id, "match": match_id,
                    "mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(value, 3),
                })
    out = []
    for rating in ratings:
        entry = {"league": league_ref(rating.league), "season": season_ref(rating.season),
                 "game_type": rating.game_type, **rating_figure(rating)}
        if history:
            entry["history"] = points[(rating.league_id, rating.game_type)]
        out.append(entry)
    return out


def player_figures(*, player: Player, leagues: QuerySet[League] | None = None,
                   season: Season | str | None = None) -> list[dict[str, Any]]:
    """The player's figures in each league and game type (all time, or ``season`` as for
    :func:`player_ratings`). One query. ::

        [{"league": {"id", "slug", "name"}, "game_type": "spades", "hands": 40,
          "counts": {"bids": 31, "bids_made": 25, ...}, "rates": {"bid_success": 0.8065, ...}}, ...]

    The counts and rates of each game are named by its ruleset (``figure_counts``, ``figure_rates``);
    a rate is ``None`` when there is nothing to divide by.
    """
    rows = in_leagues(PlayerFigures.objects.filter(player=player), leagues, season).select_related(
        "league", "season")
    rows = sorted(rows, key=lambda row: (row.league.name, row.league_id, game_order(row.game_type)))
    return [
        {"league": league_ref(row.league), "season": season_ref(row.season), "game_type": row.game_type,
         "hands": row.hands,
         "counts": dict(row.counts), "rates": ruleset_class(row.game_type).rates({**row.counts, "hands": row.hands})}
        for row in rows
    ]

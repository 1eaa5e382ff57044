"""Reading stored standings, ratings and figures: plain dicts ready for a serializer or a template.

Each selector runs a fixed number of queries whatever the size of the league (see the
docstrings). They read only what the standings task stored; nothing is computed from games here.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from games.models import League, Player, PlayerFigures, PlayerRating, RatingChange, Standing, game_type_name
from games.rules import RULESETS, game_order, ruleset_class


def league_ref(league: League) -> dict[str, Any]:
    return {"id": league.pk, "slug": league.slug, "name": league.name}


def rating_figure(rating: PlayerRating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
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


def league_standings(*, league: League, game_type: str | None = None) -> dict[str, Any]:
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
    rows = Standing.objects.filter(league=league).order_by()
    ratings = PlayerRating.objects.filter(league=league).order_by()
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
    return {"league": league_ref(league), "computed_at": computed_at, "game_types": game_types}


def in_leagues(queryset: QuerySet, leagues: QuerySet[League] | None) -> QuerySet:
    """Limit to the leagues a viewer may see (a subquery, so no extra query)."""
    return queryset if leagues is None else queryset.filter(league__in=leagues.values("pk"))


def player_ratings(*, player: Player, leagues: QuerySet[League] | None = None,
                   history: bool = True) -> list[dict[str, Any]]:
    """The player's rating in each league and game type, with its history. Two queries (one without history).

    ``leagues``: only these leagues (e.g. ``policy.visible_leagues(user)``). ::

        [{"league": {"id", "slug", "name"}, "game_type": "spades", "mu", "sigma", "ordinal", "rank",
          "rated", "history": [{"sequence", "played_at", "game", "match", "mu", "sigma", "ordinal"}, ...]},
         ...]

    ``history`` is oldest first; ``game`` or ``match`` is the id of the result that moved the
    rating (a Trumps match is rated as a whole).
    """
    ratings = in_leagues(PlayerRating.objects.filter(player=player), leagues).select_related("league")
    ratings = sorted(ratings, key=lambda rating: (rating.league.name, rating.league_id,
                                                  game_order(rating.game_type)))
    points: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    if history and ratings:
        changes = in_leagues(RatingChange.objects.filter(player=player), leagues).order_by(
            "league_id", "game_type", "sequence"
        ).values_list("league_id", "game_type", "sequence", "played_at", "game_id", "match_id", "mu", "sigma",
                      "ordinal")
        for league_id, game_type, sequence, played_at, game_id, match_id, mu, sigma, value in changes:
            points[(league_id, game_type)].append({
                "sequence": sequence, "played_at": played_at, "game": game_id, "match": match_id,
                "mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(value, 3),
            })
    out = []
    for rating in ratings:
        entry = {"league": league_ref(rating.league), "game_type": rating.game_type, **rating_figure(rating)}
        if history:
            entry["history"] = points[(rating.league_id, rating.game_type)]
        out.append(entry)
    return out


def player_figures(*, player: Player, leagues: QuerySet[League] | None = None) -> list[dict[str, Any]]:
    """The player's figures in each league and game type. One query. ::

        [{"league": {"id", "slug", "name"}, "game_type": "spades", "hands": 40,
          "counts": {"bids": 31, "bids_made": 25, ...}, "rates": {"bid_success": 0.8065, ...}}, ...]

    The counts and rates of each game are named by its ruleset (``figure_counts``, ``figure_rates``);
    a rate is ``None`` when there is nothing to divide by.
    """
    rows = in_leagues(PlayerFigures.objects.filter(player=player), leagues).select_related("league")
    rows = sorted(rows, key=lambda row: (row.league.name, row.league_id, game_order(row.game_type)))
    return [
        {"league": league_ref(row.league), "game_type": row.game_type, "hands": row.hands,
         "counts": dict(row.counts), "rates": ruleset_class(row.game_type).rates({**row.counts, "hands": row.hands})}
        for row in rows
    ]

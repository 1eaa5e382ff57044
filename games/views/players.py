"""A player: their ratings, results and figures in each league and game type, their partners and opponents,
and their games.

Ratings, results and figures are the stored ones (``games.standings``), limited to the leagues the
visitor may see. Partners and opponents are counted from the finished games the visitor may see
(``games.standings.head_to_head``), in one league or all, one game type or each.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games import policy, selectors
from games.kept import cached, keep
from games.models import Game, Player, Season, game_type_name
from games.rules import RULESETS, game_order, ruleset_class
from games.standings.head_to_head import RECORDS_SECONDS, player_records_view
from games.standings.selectors import ALL_TIME, CURRENT, SEASON_ID, player_figures, player_ratings

from .chart import rating_sparkline
from .home import game_rows
from .standings import signed


def ratio(made: int, tried: int) -> str:
    return f"{made} of {tried}" + (f" ({round(100 * made / tried)}%)" if tried else "")


def figure_lines(figures: dict[str, Any]) -> list[tuple[str, str]]:
    """The player's figures in words, as the game's ruleset names them: successes first, then averages."""
    counts = {**figures["counts"], "hands": figures["hands"]}
    rates = ruleset_class(figures["game_type"]).figure_rates
    lines = [("Hands played", str(figures["hands"]))]
    lines += [(rate.label, ratio(counts.get(rate.part, 0), counts.get(rate.whole, 0)))
              for rate in rates if not rate.average]
    lines += [(rate.label, f"{figures['rates'][rate.name]:g}{rate.unit}")
              for rate in rates if rate.average and figures["rates"].get(rate.name) is not None]
    return lines


def skill(value: float) -> str:
    return f"{value:.1f}".replace("-", "−")


def league_cards(*, ratings, results, figures) -> list[dict[str, Any]]:
    """One card per league and game type the player has a rating, results or figures in (of one scope)."""
    cards: dict[tuple[int, str], dict[str, Any]] = {}

    def card(row: dict[str, Any]) -> dict[str, Any]:
        key = (row["league"]["id"], row["game_type"])
        if key not in cards:
            cards[key] = {"league": row["league"], "season": row.get("season"), "game_type": row["game_type"],
                          "rating": None, "results": None,
                          "figures": [], "name": game_type_name(row["game_type"]),
                          "in_matches": ruleset_class(row["game_type"]).match_games > 0}
        return cards[key]

    for rating in ratings:
        history = [point["ordinal"] for point in rating["history"]]
        card(rating)["rating"] = {**rating, "skill": skill(rating["ordinal"]), "chart": rating_sparkline(history)}
    for row in figures:
        card(row)["figures"] = figure_lines(row)
    for row in results:
        card(row)["results"] = {**row, "rate_pct": round(100 * row["win_rate"])}
    return sorted(cards.values(), key=lambda entry: (entry["league"]["name"], entry["league"]["id"],
                                                     game_order(entry["game_type"])))


# Partners and opponents shown in each table at first; the next ones are a tap away (a <details>, no script), up
# to RECORDS_LISTED in all: the ones played with (or against) most. The rest, fewer games each, are only counted,
# so that a player of a big club does not get a page of every member twice per game (the API lists them all).
RECORDS_SHOWN = 8
RECORDS_LISTED = 24


def record_line(entry: dict[str, Any]) -> dict[str, Any]:
    """A partner's or opponent's line as the page shows it."""
    return {**entry, "rate_pct": round(100 * entry["win_rate"]), "margin": signed(entry["average_margin"])}


def split(key: str, entry: dict[str, Any]) -> dict[str, Any]:
    """``partners`` (or ``opponents``) shown at first, ``partners_more``: the next ones, and ``partners_left``: how
    many more are not listed."""
    lines = [record_line(line) for line in entry[key][:RECORDS_LISTED]]
    return {key: lines[:RECORDS_SHOWN], f"{key}_more": lines[RECORDS_SHOWN:],
            f"{key}_left": max(0, len(entry[key]) - RECORDS_LISTED)}


def records_section(request, player: Player, season: Season | str | None) -> dict[str, Any]:
    """The partners and opponents section: the filters chosen (``?league=<slug>``, ``?type=<game>``; anything
    else shows every league or game) and the records per game type, within the page's season: a season's days
    in its league, or, for ``current``, the chosen league's current season. Two queries (three for ``current``
    with a league)."""
    leagues = list(player.leagues.filter(pk__in=policy.visible_leagues(request.user).values("pk"))
                   .order_by("name", "id").values("pk", "slug", "name"))
    league = next((entry for entry in leagues if entry["slug"] == request.GET.get("league")), None)
    if isinstance(season, Season):
        league = {"pk": season.league_id, "slug": season.league.slug, "name": season.league.name}
    elif season == CURRENT and league is not None:
        season = Season.objects.filter(league=league["pk"]).current().first()
    game_type = request.GET.get("type") if request.GET.get("type") in RULESETS else None
    within = season if isinstance(season, Season) else None
    records = player_records_view(player=player, user=request.user, league=league["pk"] if league else None,
                                  game_type=game_type, finished_from=within and within.starts_on,
                                  finished_until=within and within.ends_on)
    section = {
        "leagues": leagues, "league": league, "game_type": game_type, "season": within,
        "game_types": [(ruleset.game_type, ruleset.name) for ruleset in RULESETS.values()],
        "minimum": records["minimum_games"],
        "tables": [{**entry, **split("partners", entry), **split("opponents", entry),
                    "best": entry["best_partnership"] and record_line(entry["best_partnership"]),
                    "worst": entry["worst_partnership"] and record_line(entry["worst_partnership"])}
                   for entry in records["game_types"]],
    }
    return {**section, "tables_html": records_tables_html(section, player)}


def records_tables_html(section: dict[str, Any], player: Player) -> str:
    """The section's tables (a busy player's run to some hundreds of lines), rendered once for what they show and
    kept for as long as their records are."""
    key = "records-html:" + hashlib.sha256(repr((
        section["tables"], section["league"], section["minimum"], player.pk, player.name)).encode()).hexdigest()
    html = cached(key)
    if html is None:
        html = render_to_string("players/_records_tables.html", {"records": section, "player": player})
        keep(key, html, RECORDS_SECONDS)
    return mark_safe(html)  # noqa: S308 - rendered by the template engine, which escaped it


def season_or_404(request, leagues) -> Season | str | None:
    """``?season=``: a season's id (of a league the visitor may see), ``current`` (each league's current
    season) or ``all``; all time by default. A season the visitor cannot see is a 404."""
    asked = request.GET.get("season", ALL_TIME)
    if asked == ALL_TIME:
        return None
    if asked == CURRENT:
        return CURRENT
    season = None
    if SEASON_ID.fullmatch(asked):
        season = Season.objects.filter(pk=int(asked), league__in=leagues.values("pk")).select_related("league").first()
    if season is None:
        raise Http404("No such season")
    return season


def player_detail(request, player_id: int):
    player = Player.objects.filter(pk=player_id).first()
    if player is None or not policy.can_view_player(request.user, player):
        raise Http404("No such player")
    leagues = policy.visible_leagues(request.user)
    season = season_or_404(request, leagues)
    results = selectors.player_standings(player=player, leagues=leagues, season=season)
    played = sum(row["played"] for row in results)
    won = sum(row["won"] for row in results)
    games = [
        {**row, "won": player_won(row["game"], player.pk)} for row in game_rows(
            selectors.player_games(player=player, user=request.user, limit=50))
    ]
    return render(request, "players/detail.html", {
        "player": player, "played": played, "won": won, "rate": round(100 * won / played) if played else None,
        "cards": league_cards(ratings=player_ratings(player=player, leagues=leagues, history=True, season=season,
                                                           ordinals_only=True),
                              results=results,
                              figures=player_figures(player=player, leagues=leagues, season=season)),
        "season": season,
        "games": games,
        "records": records_section(request, player, season),
    })


def player_won(game: Game, player_id: int) -> bool | None:
    if game.status != Game.Status.FINISHED:
        return None
    seat = next(seat for seat, pk in game.seat_ids.items() if pk == player_id)
    return bool(game.winner) and game.ruleset.side_of(seat) == game.winner

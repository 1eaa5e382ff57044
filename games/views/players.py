"""A player: their ratings, results and figures in each league and game type, and their games.

Ratings, results and figures are the stored ones (``games.standings``), limited to the leagues the
visitor may see; nothing is counted here.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import render

from games import policy, selectors
from games.models import GAME_TYPE_NAMES, Game, Player
from games.rules import GAME_TYPES, get_ruleset
from games.standings.selectors import player_figures, player_ratings

from .chart import rating_sparkline
from .home import game_rows

# Per game type: (label, count made, count tried) shown as "3 of 4 (75%)".
FIGURE_LINES = {
    "spades": [("Bids made", "bids_made", "bids"), ("Nils made", "nils_made", "nils"),
               ("Blind nils made", "blind_nils_made", "blind_nils")],
    "smudge": [("Bids made", "bids_made", "bids"), ("Smudges made", "smudges_made", "smudge_bids")],
    "trumps": [("Contracts made", "contracts_made", "contracts"),
               ("Doubled contracts made", "doubled_made", "doubled_contracts")],
    "thieving_stink": [("Held the trump stack", "stack_holds", "hands")],
}
# Per game type: (label, rate name, unit) for rates that are not successes.
FIGURE_AVERAGES = {
    "spades": [("Bags per hand", "bags_per_hand", "")],
    "thieving_stink": [("Average stack held", "average_stack", " cards")],
}


def ratio(made: int, tried: int) -> str:
    return f"{made} of {tried}" + (f" ({round(100 * made / tried)}%)" if tried else "")


def figure_lines(figures: dict[str, Any]) -> list[tuple[str, str]]:
    counts, rates, kind = figures["counts"], figures["rates"], figures["game_type"]
    lines = [("Hands played", str(figures["hands"]))]
    lines += [(label, ratio(counts.get(made, 0), figures["hands"] if tried == "hands" else counts.get(tried, 0)))
              for label, made, tried in FIGURE_LINES.get(kind, ())]
    lines += [(label, f"{rates[name]:g}{unit}") for label, name, unit in FIGURE_AVERAGES.get(kind, ())
              if rates.get(name) is not None]
    return lines


def skill(value: float) -> str:
    return f"{value:.1f}".replace("-", "−")


def league_cards(*, ratings, results, figures) -> list[dict[str, Any]]:
    """One card per league and game type the player has a rating, results or figures in."""
    cards: dict[tuple[int, str], dict[str, Any]] = {}

    def card(row: dict[str, Any]) -> dict[str, Any]:
        key = (row["league"]["id"], row["game_type"])
        if key not in cards:
            cards[key] = {"league": row["league"], "game_type": row["game_type"], "rating": None, "results": None,
                          "figures": [], "name": GAME_TYPE_NAMES.get(row["game_type"], row["game_type"])}
        return cards[key]

    for rating in ratings:
        history = [point["ordinal"] for point in rating["history"]]
        card(rating)["rating"] = {**rating, "skill": skill(rating["ordinal"]), "chart": rating_sparkline(history)}
    for row in figures:
        card(row)["figures"] = figure_lines(row)
    for row in results:
        card(row)["results"] = {**row, "rate_pct": round(100 * row["win_rate"])}
    return sorted(cards.values(), key=lambda entry: (entry["league"]["name"], entry["league"]["id"],
                                                     GAME_TYPES.index(entry["game_type"])))


def player_detail(request, player_id: int):
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    leagues = policy.visible_leagues(request.user)
    results = selectors.player_standings(player=player, leagues=leagues)
    played = sum(row["played"] for row in results)
    won = sum(row["won"] for row in results)
    games = [
        {**row, "won": player_won(row["game"], player.pk)} for row in game_rows(
            selectors.player_games(player=player, user=request.user, limit=50))
    ]
    return render(request, "players/detail.html", {
        "player": player, "played": played, "won": won, "rate": round(100 * won / played) if played else None,
        "cards": league_cards(ratings=player_ratings(player=player, leagues=leagues, history=True),
                              results=results, figures=player_figures(player=player, leagues=leagues)),
        "games": games,
    })


def player_won(game: Game, player_id: int) -> bool | None:
    if game.status != Game.Status.FINISHED:
        return None
    seat = next(seat for seat, pk in game.seat_ids.items() if pk == player_id)
    return bool(game.winner) and get_ruleset(game.game_type, game.options).side_of(seat) == game.winner

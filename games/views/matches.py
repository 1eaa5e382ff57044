"""A match: its games, the seating of each, every player's match total, the winners."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import render

from games import policy, selectors
from games.forms.base import SEAT_WORDS
from games.models import Game, Match, Player
from games.rules import ruleset_class


def match_totals(match: Match, players: dict[int, Player]) -> list[dict]:
    """Every player's match total, highest first, and whether they won the match."""
    winners = {int(pk) for pk in match.winners}
    return sorted(
        ({"player": players[int(pk)], "total": match.player_totals.get(str(pk), 0), "winner": int(pk) in winners}
         for pk in match.seating.values()),
        key=lambda row: (-row["total"], row["player"].name),
    )


def winner_names(totals: list[dict]) -> str:
    return " & ".join(row["player"].name for row in totals if row["winner"])


def match_standing(game: Game) -> dict | None:
    """For a finished game of a match: the match as it stands after it, and the game that comes next."""
    if not game.match_id:
        return None
    match = selectors.match_detail(match_id=game.match_id)
    totals = match_totals(match, selectors.players_by_id(ids=[int(pk) for pk in match.seating.values()]))
    return {
        "match": match, "totals": totals, "winner_names": winner_names(totals),
        "one_winner": sum(row["winner"] for row in totals) == 1,
        "games_in_match": ruleset_class(match.game_type).match_games,
        "finished": match.status == Match.Status.FINISHED,
        "provisional": match.provisional,
        "next_game": selectors.match_game(match=match, number=game.match_game_number + 1),
    }


def in_words(numbers: list[int]) -> str:
    """``1``, ``1 and 3``, ``1, 2 and 3``."""
    words = [str(number) for number in numbers]
    return " and ".join(filter(None, [", ".join(words[:-1]), *words[-1:]]))


def match_detail(request, match_id: int):
    try:
        match = selectors.match_detail(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404("No such match") from None
    if not policy.can_view_match(request.user, match):
        raise Http404("No such match")
    ruleset = ruleset_class(match.game_type)(match.options)
    seating = {seat: int(pk) for seat, pk in match.seating.items()}
    seatings = ruleset.match_seatings(seating)
    players = selectors.players_by_id(ids=seating.values())
    games = {game.match_game_number: game for game in selectors.match_games(match=match)}
    rows: list[dict[str, Any]] = []
    for number, seats in enumerate(seatings, 1):
        game = games.get(number)
        rows.append({
            "number": number,
            "game": game,
            "sides": [
                {"key": side, "names": " & ".join(players[seats[seat]].name for seat in ruleset.seats_of(side)),
                 "total": game.totals.get(side, 0) if game else None,
                 "winner": bool(game and game.winner == side)}
                for side in ruleset.sides
            ],
            "seats": [(seat, SEAT_WORDS[seat], players[seats[seat]].name) for seat in "NESW"],
        })
    totals = match_totals(match, players)
    # A game with hands the other side has not yet confirmed keeps the whole match out of the standings.
    waiting = [number for number, game in sorted(games.items()) if game.provisional]
    return render(request, "games/match.html", {
        "match": match, "name": ruleset.name, "games_in_match": ruleset.match_games, "rows": rows, "totals": totals,
        "winner_names": winner_names(totals),
        "finished": match.status == Match.Status.FINISHED,
        "provisional": bool(waiting), "provisional_games": waiting, "provisional_words": in_words(waiting),
        "window_hours": match.league.provisional_hours if match.league else None,
        "current": next((row["game"] for row in rows if row["game"] and row["game"].status == "in_progress"), None),
    })

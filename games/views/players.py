"""A player: their games, win rate, and the figures people care about in each game."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import Http404
from django.shortcuts import render

from games import selectors
from games.models import GAME_TYPE_CHOICES, Game, Player
from games.rules import get_ruleset

from .home import game_rows
from .standings import SEAT_COLUMNS, won_by


def seat_in(row: dict[str, Any], player_id: int, prefix: str = "") -> str | None:
    for seat, column in SEAT_COLUMNS.items():
        if row[prefix + column] == player_id:
            return seat
    return None


def ratio(made: int, tried: int) -> str:
    return f"{made} of {tried}" + (f" ({round(100 * made / tried)}%)" if tried else "")


def spades_figures(count, seat, record, details) -> None:
    nil = record["bids"][seat] in (0, "nil", "blind_nil")
    made = bool(details.get("bids_made", {}).get(seat))
    count["spades_nils" if nil else "spades_bids"] += 1
    count["spades_nils_made" if nil else "spades_bids_made"] += made


def smudge_figures(count, seat, record, details) -> None:
    if record["bidder"] != seat:
        return
    smudge = record["bid"] in ("smudge", 5)
    count["smudge_bids"] += 1
    count["smudge_bids_made"] += bool(details.get("made"))
    count["smudges"] += smudge
    count["smudges_made"] += smudge and bool(details.get("made"))


def trumps_figures(count, seat, record, details) -> None:
    if record["declarer"] == seat:
        count["trumps_contracts"] += 1
        count["trumps_contracts_made"] += bool(details.get("made"))


def stink_figures(count, seat, record, details) -> None:
    count["stink_hands"] += 1
    count["stink_holds"] += details.get("trump_stack_holder") == seat


FIGURES = {"spades": spades_figures, "smudge": smudge_figures, "trumps": trumps_figures,
           "thieving_stink": stink_figures}


def hand_figures(hands: list[dict[str, Any]], player_id: int) -> dict[str, list[tuple[str, str]]]:
    """Per game: Spades bids and nils made, Smudge bids made and smudges, Trumps contracts, Thieving Stink holds."""
    count: dict[str, int] = defaultdict(int)
    for hand in hands:
        seat = seat_in(hand, player_id, "game__")
        if seat is not None:
            FIGURES[hand["game__game_type"]](count, seat, hand["record"], hand["details"] or {})
    return {
        "spades": [("Bids made", ratio(count["spades_bids_made"], count["spades_bids"])),
                   ("Nils made", ratio(count["spades_nils_made"], count["spades_nils"]))],
        "smudge": [("Bids made", ratio(count["smudge_bids_made"], count["smudge_bids"])),
                   ("Smudges made", ratio(count["smudges_made"], count["smudges"]))],
        "trumps": [("Contracts made", ratio(count["trumps_contracts_made"], count["trumps_contracts"]))],
        "thieving_stink": [("Held the trump stack", ratio(count["stink_holds"], count["stink_hands"]))],
    }


def player_detail(request, player_id: int):
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    results = selectors.player_results(player=player, user=request.user)
    per_type: dict[str, dict[str, int]] = {code: {"played": 0, "won": 0} for code, _ in GAME_TYPE_CHOICES}
    for game in results:
        if game["status"] != Game.Status.FINISHED:
            continue
        seat = seat_in(game, player.pk)
        per_type[game["game_type"]]["played"] += 1
        per_type[game["game_type"]]["won"] += won_by(game, seat)
    figures = hand_figures(selectors.player_hands(player=player, user=request.user), player.pk)
    played = sum(row["played"] for row in per_type.values())
    won = sum(row["won"] for row in per_type.values())
    games = [
        {**row, "won": player_won(row["game"], player.pk)} for row in game_rows(
            selectors.player_games(player=player, user=request.user, limit=50))
    ]
    return render(request, "players/detail.html", {
        "player": player, "played": played, "won": won, "rate": round(100 * won / played) if played else None,
        "per_type": [
            {"code": code, "name": name, **per_type[code],
             "rate": round(100 * per_type[code]["won"] / per_type[code]["played"]) if per_type[code]["played"]
             else None, "figures": figures[code]}
            for code, name in GAME_TYPE_CHOICES
        ],
        "games": games,
    })


def player_won(game: Game, player_id: int) -> bool | None:
    if game.status != Game.Status.FINISHED:
        return None
    seat = next(seat for seat, pk in game.seat_ids.items() if pk == player_id)
    return bool(game.winner) and get_ruleset(game.game_type, game.options).side_of(seat) == game.winner

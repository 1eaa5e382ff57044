"""What the game pages share: finding a game the user may see, and the scoreboard built from its hands."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from games import policy, selectors
from games.forms import hand_form_class
from games.forms.base import SEAT_WORDS, seat_names, side_names
from games.models import Game, Hand
from games.rules import get_ruleset, next_seat

from .chart import score_chart


def visible_game_or_404(request, game_id: int) -> Game:
    """The game, if the user may see it; a private league's game is a 404 to everyone else."""
    try:
        game = selectors.game_detail(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if not policy.can_view_game(request.user, game):
        raise Http404("No such game")
    return game


def winner_names(game: Game) -> str:
    if not game.winner:
        return ""
    return side_names(game, (game.winner,))[game.winner]


def board(game: Game, hands: list[Hand], *, corrected: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """The scoreboard, the history and the chart of a game, from the game row and its hands."""
    ruleset = get_ruleset(game.game_type, game.options)
    sides = ruleset.sides
    names = side_names(game, sides)
    seats = seat_names(game)
    form_class = hand_form_class(game.game_type)
    bags = (game.extras or {}).get("bags")
    finished = game.status == Game.Status.FINISHED
    next_dealer = next_seat(game.first_dealer, game.hand_count)
    side_rows = [
        {"key": side, "name": names[side], "total": game.totals.get(side, 0),
         "bags": bags.get(side) if bags is not None else None,
         "winner": finished and game.winner == side,
         "seats": [(seat, seats[seat]) for seat in side] if len(side) == 2 else [(side, seats[side])]}
        for side in sides
    ]
    history = [
        {
            "number": hand.number,
            "dealer": hand.dealer,
            "dealer_name": seats[hand.dealer],
            "entry": form_class.describe(hand.record, hand.details or {}, seats),
            "note": hand.record.get("note", ""),
            "delta": [hand.delta.get(side, 0) for side in sides],
            "delta_pairs": [(side, hand.delta.get(side, 0)) for side in sides],
            "totals": [hand.totals.get(side, 0) for side in sides],
            "bags": [hand.extras.get("bags", {}).get(side) for side in sides] if bags is not None else None,
            "corrected": hand.number in corrected,
            "last": hand.number == game.hand_count,
        }
        for hand in hands
    ]
    return {
        "game": game,
        "sides": side_rows,
        "side_keys": sides,
        "names": names,
        "seats": [(seat, SEAT_WORDS[seat], seats[seat]) for seat in seats],
        "has_bags": bags is not None,
        "target": game.options.get("target"),
        "next_dealer": next_dealer,
        "next_dealer_name": seats[next_dealer],
        "next_number": game.hand_count + 1,
        "finished": finished,
        "abandoned": game.status == Game.Status.ABANDONED,
        "in_progress": game.status == Game.Status.IN_PROGRESS,
        "winner_names": winner_names(game),
        "history": history,
        "chart": score_chart(sides, names, [hand.totals for hand in hands], game.options.get("target")),
    }


def game_title(game: Game) -> str:
    names = seat_names(game)
    return f"{game.game_type_name}: {names['N']} & {names['S']} v {names['E']} & {names['W']}"

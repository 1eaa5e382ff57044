"""Starting play at a table: the players (some of them new), then a game or a match, in one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.idempotency import GAME_STARTS, row_once
from games.models import Game, League, name_key
from games.rules import SEATS

from .games import game_start
from .matches import match_start
from .players import create as player_create


def table_start(
    *,
    game_type: str,
    seats: Mapping[str, int | str],
    by,
    league: League | None = None,
    options: Mapping[str, Any] | None = None,
    as_match: bool = False,
    allow_similar: bool = False,
    idempotency_key: str | None = None,
    confirmation: str | None = None,
) -> Game:
    """Seat the table and start its game: each seat holds a player id, or the name of a new player.

    A new player in a league game is one of the league's. A new name that differs only in case or
    spacing from a player the user would seat is refused (``seats.<seat>``) unless ``allow_similar``.

    ``as_match`` starts a match (for games played in matches) and returns its first game. A refusal
    (a rule option, a seat, a permission) leaves nothing behind: no new player is kept. A retry with
    the same ``idempotency_key`` (a form sent twice) adds no player and starts nothing more.
    """
    request = {"game_type": game_type, "seats": seats, "league": league.pk if league else None,
               "options": options, "as_match": as_match, "allow_similar": allow_similar}
    if confirmation is not None:
        request["confirmation"] = confirmation
    return row_once(
        user=by, scope=GAME_STARTS, key=idempotency_key, request=request, rows=Game.objects.all(),
        write=lambda: seat_and_start(game_type=game_type, seats=seats, by=by, league=league, options=options,
                                     as_match=as_match, allow_similar=allow_similar, confirmation=confirmation),
    )


@transaction.atomic
def seat_and_start(*, game_type, seats, by, league, options, as_match, allow_similar, confirmation=None) -> Game:
    if not policy.can_start_game(by, league):
        raise NotAllowed("only the league's owners and scorekeepers can start its games")
    seated: dict[str, Any] = {}
    new_names: dict[str, str] = {}
    for seat in SEATS:
        choice = seats.get(seat) if isinstance(seats, Mapping) else None
        if isinstance(choice, str):
            key = name_key(choice)
            if key and key in new_names.values():
                raise InvalidInput(f"{choice.strip()} is typed in two seats", field=f"seats.{seat}")
            new_names[seat] = key
            seated[seat] = player_create(name=choice, by=by, league=league, allow_similar=allow_similar,
                                         field=f"seats.{seat}").pk
        else:
            seated[seat] = choice
    if as_match:
        match = match_start(game_type=game_type, seats=seated, by=by, league=league, options=options)
        return match.games.get(match_game_number=1)
    return game_start(game_type=game_type, seats=seated, by=by, league=league, options=options,
                      confirmation=confirmation)

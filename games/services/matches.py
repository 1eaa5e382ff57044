"""Matches: several games of a type that is played in matches (``Ruleset.match_games``), and each
player's match total. Trumps: three games, partners rotating so that everyone partners everyone once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.idempotency import row_once
from games.models import Game, League, Match, Player
from games.rules import ruleset_class

from .games import league_options, new_game, seat_players


def match_start(
    *,
    game_type: str,
    seats: Mapping[str, Any],
    by,
    league: League | None = None,
    first_dealer: str | None = None,
    options: Mapping[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> Match:
    """Start a match: game 1 with the seating given; the next games follow as each finishes.

    A retry with the same ``idempotency_key`` starts nothing more and gets the match the first started.
    """
    request = {"game_type": game_type, "seats": seats, "league": league.pk if league else None,
               "options": options, "first_dealer": first_dealer}
    return row_once(
        user=by, scope="matches", key=idempotency_key, request=request, rows=Match.objects.all(),
        write=lambda: start_match(game_type=game_type, seats=seats, by=by, league=league, options=options,
                                  first_dealer=first_dealer),
    )


@transaction.atomic
def start_match(*, game_type, seats, by, league, options, first_dealer) -> Match:
    if not policy.can_start_game(by, league):
        raise NotAllowed("only the league's owners and scorekeepers can start its games")
    if not ruleset_class(game_type).match_games:
        raise InvalidInput(f"{ruleset_class(game_type).name} is not played in matches", field="game_type")
    players = seat_players(seats, by, league)
    chosen = league_options(league, game_type, options)
    if first_dealer is not None:
        chosen["first_dealer"] = first_dealer
    match = Match.objects.create(
        game_type=game_type,
        league=league,
        seating={seat: player.pk for seat, player in players.items()},
        options={},
        created_by=by if by.is_authenticated else None,
    )
    game = new_game(game_type=game_type, players=players, by=by, league=league, options=chosen,
                    match=match, match_game_number=1)
    match.options = game.options
    match.save(update_fields=["options"])
    return match


def match_refresh(*, match: Match) -> Match:
    """Bring a match up to date with its games: start the next game, recount totals, finish it.

    Called inside the transaction that changed one of its games.
    """
    match = Match.objects.select_for_update().get(pk=match.pk)
    ruleset = ruleset_class(match.game_type)(match.options)
    games = list(match.games.order_by("match_game_number"))
    seatings = ruleset.match_seatings({seat: int(pk) for seat, pk in match.seating.items()})
    finished = [game for game in games if game.status == Game.Status.FINISHED]
    if match.status == Match.Status.IN_PROGRESS and len(finished) == len(games) < ruleset.match_games:
        seating = seatings[len(games)]
        players = Player.objects.in_bulk(list(seating.values()))
        games.append(new_game(
            game_type=match.game_type, players={seat: players[pk] for seat, pk in seating.items()},
            by=games[-1].created_by, league=match.league, options=match.options,
            match=match, match_game_number=len(games) + 1,
        ))
    result = ruleset.match_result(seatings[: len(finished)], [game.totals for game in finished])
    match.player_totals = {str(player): total for player, total in result.player_totals.items()}
    match.winners = list(result.winners)
    if match.status != Match.Status.ABANDONED:
        done = len(finished) == ruleset.match_games
        match.status = Match.Status.FINISHED if done else Match.Status.IN_PROGRESS
        match.finished_at = (match.finished_at or timezone.now()) if done else None
    match.save(update_fields=["player_totals", "winners", "status", "finished_at"])
    return match

"""Starting and abandoning games, and starting play at a table (new players, then a game or a match)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import policy
from games.errors import GameClosed, InvalidInput, NotAllowed
from games.idempotency import GAME_STARTS, row_once
from games.models import Confirmation, Game, League, Match, Player
from games.rules import RULES_VERSION, SEATS, ruleset_class
from games.summary import game_summary


def game_snapshot(game: Game) -> dict[str, Any]:
    """The game as it stands, in the shape every door shows (also carried by conflict errors)."""
    return game_summary(game).as_payload()


def league_options(league: League | None, game_type: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """A league's house rules for the game type, overridden by the options given for this game."""
    merged = dict((league.default_options or {}).get(game_type, {})) if league else {}
    merged.update(options or {})
    return merged


def seat_players(seats: Mapping[str, Any], by, league: League | None = None) -> dict[str, Player]:
    """The four players by seat; each seat filled, by four different players that ``by`` may see.

    A league game seats only the league's own players: a player of another league (or of no league) is
    refused as a player who does not exist would be, so starting a game is never a way to take another
    league's player into one's own. (A new name typed at a league's table becomes the league's player.)
    """
    if not isinstance(seats, Mapping) or set(seats) != set(SEATS):
        raise InvalidInput("seats needs a player for each of N, E, S and W", field="seats")
    ids = {}
    for seat in SEATS:
        value = seats[seat]
        pk = value.pk if isinstance(value, Player) else value
        if isinstance(pk, bool) or not isinstance(pk, int):
            raise InvalidInput(f"seat {seat} must be a player id", field=f"seats.{seat}")
        ids[seat] = pk
    if len(set(ids.values())) != 4:
        raise InvalidInput("a player can sit in only one seat", field="seats")
    candidates = league.players.all() if league is not None else policy.visible_players(by)
    players = candidates.in_bulk(list(ids.values()))
    for seat, pk in ids.items():
        if pk not in players:
            where = f" in {league.name}" if league is not None else ""
            raise InvalidInput(f"there is no player {pk}{where} (seat {seat})", field=f"seats.{seat}")
    return {seat: players[pk] for seat, pk in ids.items()}


def game_start(
    *,
    game_type: str,
    seats: Mapping[str, Any],
    by,
    league: League | None = None,
    options: Mapping[str, Any] | None = None,
    first_dealer: str | None = None,
    idempotency_key: str | None = None,
    confirmation: str | None = None,
) -> Game:
    """Start a game: the engine checks the options and fills in every default.

    ``confirmation``: whether the other side confirms each hand (``off`` or ``opponents``); by default the
    league's house rule (off for a casual game). A retry with the same ``idempotency_key`` starts nothing more and gets the game the first started.
    """
    request = {"game_type": game_type, "seats": seats, "league": league.pk if league else None,
               "options": options, "first_dealer": first_dealer}
    if confirmation is not None:
        request["confirmation"] = confirmation
    return row_once(
        user=by, scope=GAME_STARTS, key=idempotency_key, request=request, rows=Game.objects.all(),
        write=lambda: start(game_type=game_type, seats=seats, by=by, league=league, options=options,
                            first_dealer=first_dealer, confirmation=confirmation),
    )


def chosen_confirmation(league: League | None, confirmation: str | None) -> str:
    """The game's confirmation: the one asked for, else the league's house rule, else off."""
    if confirmation is None:
        return league.confirmation if league is not None else str(Confirmation.OFF)
    if confirmation not in Confirmation.values:
        raise InvalidInput(f"confirmation must be one of {', '.join(Confirmation.values)}", field="confirmation")
    return confirmation


@transaction.atomic
def start(*, game_type, seats, by, league, options, first_dealer, confirmation=None) -> Game:
    if not policy.can_start_game(by, league):
        raise NotAllowed("only the league's owners and scorekeepers can start its games")
    chosen = league_options(league, game_type, options)
    if first_dealer is not None:
        chosen["first_dealer"] = first_dealer
    return new_game(game_type=game_type, players=seat_players(seats, by, league), by=by, league=league,
                    options=chosen, confirmation=chosen_confirmation(league, confirmation))


def new_game(*, game_type, players: Mapping[str, Player], by, league, options, match=None,
             match_game_number=None, confirmation: str | None = None) -> Game:
    """Create the game row with its options complete and its totals at zero (no permission check, and
    the players already checked: a league's game seats its own players, ``seat_players``)."""
    ruleset = ruleset_class(game_type)(options)
    state = ruleset.initial_state()
    return Game.objects.create(
        game_type=game_type,
        league=league,
        north=players["N"],
        east=players["E"],
        south=players["S"],
        west=players["W"],
        options=dict(ruleset.options),
        rules_version=RULES_VERSION,
        totals=dict(state.totals),
        extras={name: dict(values) for name, values in state.extras.items()},
        match=match,
        match_game_number=match_game_number,
        created_by=by if by is not None and by.is_authenticated else None,
        confirmation=confirmation or chosen_confirmation(league, None),
    )


def keyed_game_write(*, game: Game, by, action: str, key: str | None, request: Any, write) -> Game:
    """A change to a game (correct, undo, abandon) done at most once per idempotency key; the game after it.

    The game's row is locked first, so a retry racing the first request waits for it and gets its answer.
    """
    def lock() -> None:
        Game.objects.select_for_update(of=("self",)).only("pk").get(pk=game.pk)

    return row_once(user=by, scope=f"game:{game.pk}:{action}", key=key, request=request, write=write, lock=lock,
                    rows=Game.objects.select_related("league"))


def game_abandon(*, game: Game, by, idempotency_key: str | None = None) -> Game:
    """Stop a game for good. A retry with the same ``idempotency_key`` gets the abandoned game."""
    return keyed_game_write(game=game, by=by, action="abandon", key=idempotency_key, request={},
                            write=lambda: abandon(game=game, by=by))


@transaction.atomic
def abandon(*, game: Game, by) -> Game:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not policy.can_score_game(by, game):
        raise NotAllowed("you cannot keep score in this game")
    if game.status != Game.Status.IN_PROGRESS:
        raise GameClosed(f"the game is already {game.get_status_display().lower()}")
    game.status = Game.Status.ABANDONED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at", "updated_at"])
    if game.match_id:
        Match.objects.filter(pk=game.match_id).update(status=Match.Status.ABANDONED, finished_at=timezone.now())
    return game


@transaction.atomic
def game_set_public(*, game: Game, public: bool, by) -> Game:
    """Let anyone follow a casual game (or only its players and scorekeepers again). Its creator only.

    A league game is as public as its league.
    """
    if game.league_id is not None:
        raise InvalidInput("a league game is public or private with its league", field="league")
    if not policy.can_choose_scorekeepers(by, game):
        raise NotAllowed("only the player who started this game can share it")
    game.is_public = bool(public)
    game.save(update_fields=["is_public", "updated_at"])
    return game


@transaction.atomic
def game_set_scorekeeper(*, game: Game, user, allowed: bool, by) -> Game:
    """Let ``user`` keep score in a casual game (or stop them). Only the game's creator may.

    League games follow the league's roles instead: owners and scorekeepers.
    """
    if game.league_id is not None:
        raise InvalidInput("a league game's scorekeepers are the league's owners and scorekeepers", field="league")
    if not policy.can_choose_scorekeepers(by, game):
        raise NotAllowed("only the player who started this game can choose its scorekeepers")
    if allowed:
        game.scorekeepers.add(user)
    else:
        game.scorekeepers.remove(user)
    return game

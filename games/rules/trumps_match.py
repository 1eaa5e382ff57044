"""Trumps matches: three games with the partnerships rotated so everyone partners everyone once.

The rules and the project's rulings on them: docs/rules/trumps.md ("Matches" and rulings 7 to 12).

The same player deals first in every game. Game 1 is played as seated. For game 2 the first
dealer's partner and the player on the dealer's left swap seats; for game 3 the dealer's new
partner and the player on the dealer's right swap. Each player's match total is the sum of their
side's final totals over the three games, overshoot included, and the highest total wins.

Players are opaque ids (a user id, a name): these functions only move them between seats.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import PARTNERSHIPS, SEATS, Option, frozen, is_int, next_seat, side_of
from .errors import InvalidOptions, RulesError, shown

GAMES_IN_MATCH = 3

# The options a match reads: two of the game's own (``Trumps.option_specs`` lists them), defined here so
# that this module needs nothing of the game's class.
TARGET = Option("target", "int", 50, "Points a side needs to win the game, counted at the end of a hand.", minimum=1)
MATCH_TIEBREAK = Option(
    "match_tiebreak",
    "choice",
    "none",
    "How a match tie on total points is settled: players with equal totals share the win (none), "
    "or the one who won more games wins (games_won).",
    choices=("none", "games_won"),
)

Player = Hashable


def match_seatings(
    seats: Mapping[str, Player], first_dealer: str
) -> tuple[dict[str, Player], dict[str, Player], dict[str, Player]]:
    """The seating of each of the three games of a match, seat -> player.

    Game 1 is ``seats`` as given. Game 2: the first dealer's partner and the player on the
    dealer's left swap. Game 3 (from game 2): the dealer's new partner and the player on the
    dealer's right swap. The first dealer keeps their seat throughout, and over the three
    games every player partners each of the other three exactly once.

    >>> match_seatings({"N": "ann", "E": "bob", "S": "cat", "W": "dan"}, "N")[1:]
    ({'N': 'ann', 'E': 'cat', 'S': 'bob', 'W': 'dan'}, {'N': 'ann', 'E': 'cat', 'S': 'dan', 'W': 'bob'})
    """
    game1 = check_seating(seats, "seats")
    if first_dealer not in SEATS:
        raise RulesError(
            f"first_dealer must be one of {', '.join(SEATS)}, not {shown(first_dealer)}",
            field="first_dealer",
        )
    partner, left, right = (next_seat(first_dealer, steps) for steps in (2, 1, 3))
    game2 = swapped(game1, partner, left)
    game3 = swapped(game2, partner, right)
    return game1, game2, game3


def swapped(seating: Mapping[str, Player], one: str, other: str) -> dict[str, Player]:
    out = dict(seating)
    out[one], out[other] = seating[other], seating[one]
    return out


def check_seating(seats: Any, field_name: str) -> dict[str, Player]:
    """A seating is four different players, one in each of N, E, S and W; returned in seat order."""
    if not isinstance(seats, Mapping) or set(seats) != set(SEATS):
        raise RulesError(
            f"{field_name} needs a player in each of {', '.join(SEATS)} and nothing else",
            field=field_name,
        )
    players = [seats[seat] for seat in SEATS]
    if len(set(players)) != len(SEATS):
        raise RulesError(f"{field_name} must seat four different players", field=field_name)
    return {seat: seats[seat] for seat in SEATS}


@dataclass(frozen=True)
class MatchResult:
    """Where a Trumps match stands after the games given.

    ``player_totals`` and ``games_won`` are keyed by player. ``game_winners`` holds the winning
    side of each game given (``None`` for a game that no side has won yet). ``winners`` is empty
    until all three games are given; then it lists the match winners (several on a tie),
    in game 1's seat order.
    """

    player_totals: Mapping[Player, int]
    games_won: Mapping[Player, int]
    winners: tuple[Player, ...]
    games_played: int
    game_winners: tuple[str | None, ...] = ()
    complete: bool = False
    side_totals: tuple[Mapping[str, int], ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "player_totals": dict(self.player_totals),
            "games_won": dict(self.games_won),
            "winners": list(self.winners),
            "games_played": self.games_played,
            "game_winners": list(self.game_winners),
            "complete": self.complete,
            "side_totals": [dict(totals) for totals in self.side_totals],
        }


def match_result(
    seatings: Sequence[Mapping[str, Player]],
    game_totals: Sequence[Mapping[str, int]],
    options: Mapping[str, Any] | None = None,
) -> MatchResult:
    """Each player's match total and games won, and the match winners once three games are in.

    ``seatings`` are the seatings from :func:`match_seatings` (all three, or at least one per game
    given); ``game_totals`` the final ``{"NS": ..., "EW": ...}`` totals of each game played so far,
    in order (fewer than three gives the running totals of a match in progress; with no seatings at
    all there is nobody to total yet). ``options`` are the games' Trumps options:
    ``target`` decides who won each game, ``match_tiebreak`` settles equal match totals.

    A player's total is the sum of their side's final totals (overshoot past the target counts).
    The highest total wins the match; equal totals are co-winners, unless ``match_tiebreak`` is
    ``games_won``: then the tied player who won the most games wins, and players still equal share
    the win.

    >>> seatings = match_seatings({"N": 1, "E": 2, "S": 3, "W": 4}, "N")
    >>> result = match_result(seatings, [{"NS": 52, "EW": 30}, {"NS": 20, "EW": 55}, {"NS": 51, "EW": 40}])
    >>> dict(result.player_totals), result.winners
    ({1: 123, 2: 90, 3: 147, 4: 136}, (3,))
    """
    options = match_options(options)
    if isinstance(seatings, Mapping) or len(seatings) > GAMES_IN_MATCH:
        raise RulesError(f"a match has at most {GAMES_IN_MATCH} seatings, one per game", field="seatings")
    checked = [check_seating(seating, f"seatings.{index}") for index, seating in enumerate(seatings, 1)]
    players = list(checked[0].values()) if checked else []
    for index, seating in enumerate(checked[1:], 2):
        if set(seating.values()) != set(players):
            raise RulesError("every game of a match seats the same four players", field=f"seatings.{index}")
    if isinstance(game_totals, Mapping) or len(game_totals) > len(checked):
        raise RulesError(
            f"{len(game_totals)} games given but only {len(checked)} seatings; "
                                        "each game needs its seating",
            field="game_totals",
        )

    player_totals = dict.fromkeys(players, 0)
    games_won = dict.fromkeys(players, 0)
    game_winners: list[str | None] = []
    side_totals: list[Mapping[str, int]] = []
    for index, given in enumerate(game_totals, 1):
        seating, totals = checked[index - 1], check_game_totals(given, f"game_totals.{index}")
        winner = game_winner(totals, options["target"])
        game_winners.append(winner)
        side_totals.append(frozen(totals))
        for seat, player in seating.items():
            player_totals[player] += totals[side_of(seat)]
            if winner == side_of(seat):
                games_won[player] += 1

    complete = len(game_totals) == GAMES_IN_MATCH
    winners = match_winners(players, player_totals, games_won, options["match_tiebreak"]) if complete else ()
    return MatchResult(
        player_totals=frozen(player_totals),
        games_won=frozen(games_won),
        winners=winners,
        games_played=len(game_totals),
        game_winners=tuple(game_winners),
        complete=complete,
        side_totals=tuple(side_totals),
    )


def match_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options a match reads, each checked, with its default where not given (the game's other options
    are the game's to check)."""
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object of option names to values", field="options")
    return {spec.name: spec.check(options[spec.name]) if spec.name in options else spec.default
            for spec in (TARGET, MATCH_TIEBREAK)}


def check_game_totals(totals: Any, field_name: str) -> dict[str, int]:
    if not isinstance(totals, Mapping) or set(totals) != set(PARTNERSHIPS):
        raise RulesError(f"{field_name} needs a total for NS and for EW", field=field_name)
    for side in PARTNERSHIPS:
        if not is_int(totals[side]) or totals[side] < 0:
            raise RulesError(
                f"a Trumps total is a whole number of at least 0, "
                                                     f"not {shown(totals[side])}",
                field=f"{field_name}.{side}",
            )
    return {side: totals[side] for side in PARTNERSHIPS}


def game_winner(totals: Mapping[str, int], target: int) -> str | None:
    """The side that won a game with these final totals: the one at the target (only one can be)."""
    reached = [side for side in PARTNERSHIPS if totals[side] >= target]
    if len(reached) == 1:
        return reached[0]
    # Both at the target cannot come from play; take the higher if the totals say so.
    if reached and totals["NS"] != totals["EW"]:
        return max(reached, key=lambda side: totals[side])
    return None


def match_winners(
    players: Sequence[Player], totals: Mapping[Player, int], games_won: Mapping[Player, int], tiebreak: str
) -> tuple[Player, ...]:
    """The highest match total wins; a tie is shared, or settled by games won under ``games_won``."""
    best = max(totals[player] for player in players)
    leaders = [player for player in players if totals[player] == best]
    if tiebreak == "games_won":
        most = max(games_won[player] for player in leaders)
        leaders = [player for player in leaders if games_won[player] == most]
    return tuple(leaders)

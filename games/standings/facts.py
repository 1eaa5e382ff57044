"""Reading a league's finished games, Trumps matches and hands from the database, in bulk.

The rows are read once (``values_list``, no model instances) and serve twice: as the facts the
arithmetic works on (:class:`GameResult`, :class:`MatchOutcome`), and as the fingerprints the
watermark is made of. A game's fingerprint is its id, ``updated_at``, winner, hand count and
match, so a correction or an undo (which saves the game) changes it; a match's is its whole row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import CharField, Q, QuerySet
from django.db.models.functions import Cast, Coalesce

from games.models import Game, Hand, Match
from games.rules import Ruleset, ruleset_class

from .figures import FiguresBuilder
from .results import GameResult, MatchOutcome, int_totals

BATCH = 2000
SEATED = ("north_id", "east_id", "south_id", "west_id")
# What a game's fingerprint is made of: ``updated`` is ``updated_at`` as the database writes it out
# (text, so that reading twenty thousand of them costs no datetime parsing). Every change the
# services make to a game saves it, and so changes ``updated_at``.
GAME_PRINT = ("id", "updated", "winner", "hand_count", "match_id")
GAME_FIELDS = ("id", "game_type", *SEATED, "options", "totals", "winner", "finished_at", "started_at",
               "match_id", "hand_count", "updated")
MATCH_FIELDS = ("id", "game_type", "finished_at", "started_at", "player_totals", "winners")
GAME_FINISHED_AT, GAME_STARTED_AT = GAME_FIELDS.index("finished_at"), GAME_FIELDS.index("started_at")
GAME_PRINT_AT = tuple(GAME_FIELDS.index(name) for name in GAME_PRINT)
MATCH_FINISHED_AT, MATCH_STARTED_AT = MATCH_FIELDS.index("finished_at"), MATCH_FIELDS.index("started_at")

Order = tuple[datetime, int, int]
GAME, MATCH = 0, 1  # a game sorts before a match finished at the same moment (its third game)


@dataclass(frozen=True)
class FinishedRows:
    """Finished games and matches as stored (``values_list`` rows), each with its place in game order."""

    games: list[tuple[Order, tuple]]
    matches: list[tuple[Order, tuple]]

    @property
    def last(self) -> Order | None:
        orders = [order for order, _ in self.games] + [order for order, _ in self.matches]
        return max(orders, default=None)

    def __len__(self) -> int:
        return len(self.games) + len(self.matches)

    def prints(self) -> list[str]:
        return [game_print(row[index] for index in GAME_PRINT_AT) for _, row in self.games] + [
            match_print(row) for _, row in self.matches
        ]


def game_print(values: Iterable[Any]) -> str:
    return "g" + "|".join(map(str, values))


def match_print(row: Sequence[Any]) -> str:
    return "m" + repr(tuple(row))


def digest(prints: Iterable[str]) -> str:
    """A hash of a set of results' fingerprints (in any order), as 16 hex digits."""
    return hashlib.sha256("\n".join(sorted(prints)).encode()).hexdigest()[:16]


def games_of(league_id: int) -> QuerySet:
    return (Game.objects.filter(league_id=league_id, status=Game.Status.FINISHED).order_by()
            .annotate(at=Coalesce("finished_at", "started_at"), updated=Cast("updated_at", CharField())))


def up_to(order: Order) -> Q:
    """Games at or before ``order`` in game order (by ``at``, the finish time, then id)."""
    at, kind, last_id = order
    if kind == MATCH:
        return Q(at__lte=at)
    return Q(at__lt=at) | Q(at=at, id__lte=last_id)


def finished_rows(league_id: int, after: Order | None = None) -> FinishedRows:
    """The league's finished games and matches (only those after ``after``, if given). Two queries."""
    games = games_of(league_id)
    if after is not None:
        games = games.exclude(up_to(after))
    game_rows = [
        ((row[GAME_FINISHED_AT] or row[GAME_STARTED_AT], GAME, row[0]), row)
        for row in games.values_list(*GAME_FIELDS).iterator(chunk_size=BATCH)
    ]
    match_rows = [item for item in finished_matches(league_id) if after is None or item[0] > after]
    return FinishedRows(games=game_rows, matches=match_rows)


def finished_matches(league_id: int) -> list[tuple[Order, tuple]]:
    return [
        ((row[MATCH_FINISHED_AT] or row[MATCH_STARTED_AT], MATCH, row[0]), row)
        for row in Match.objects.filter(league_id=league_id, status=Match.Status.FINISHED).order_by()
        .values_list(*MATCH_FIELDS)
    ]


def counted(league_id: int, order: Order | None) -> tuple[int, int, list[str]]:
    """The finished games and matches at or before ``order``: how many of each, and their fingerprints.

    Two light queries (no JSON or datetimes to parse for the games), for the update's check.
    """
    if order is None:
        return 0, 0, []
    prints = [game_print(values) for values in
              games_of(league_id).filter(up_to(order)).values_list(*GAME_PRINT).iterator(chunk_size=BATCH)]
    games = len(prints)
    matches = [match_print(row) for match_order, row in finished_matches(league_id) if match_order <= order]
    return games, len(matches), prints + matches


class Rulesets:
    """The rules of each game read, made once per game type and set of options (most games share them)."""

    def __init__(self) -> None:
        self.made: dict[tuple[str, tuple], Ruleset] = {}

    def of(self, game_type: str, options: Any) -> Ruleset:
        options = options if isinstance(options, dict) else {}
        key = (game_type, tuple(sorted(options.items())))
        ruleset = self.made.get(key)
        if ruleset is None:
            ruleset = self.made[key] = ruleset_class(game_type)(options)
        return ruleset


@dataclass(frozen=True)
class LeagueFacts:
    """Finished games and matches as values, with each game's seating and rules for counting its hands."""

    games: list[GameResult]
    matches: list[MatchOutcome]
    seats: dict[int, dict[str, int]]
    rulesets: dict[int, Ruleset]


def facts_of(rows: FinishedRows) -> LeagueFacts:
    games: list[GameResult] = []
    seats: dict[int, dict[str, int]] = {}
    rulesets: dict[int, Ruleset] = {}
    made = Rulesets()
    for (finished_at, _, _), (game_id, game_type, north, east, south, west, options, totals, winner, _, _,
                              match_id, _, _) in rows.games:
        seating = {"N": north, "E": east, "S": south, "W": west}
        ruleset = made.of(game_type, options)
        sides = {side: tuple(seating[seat] for seat in ruleset.seats_of(side)) for side in ruleset.sides}
        seats[game_id] = seating
        rulesets[game_id] = ruleset
        games.append(GameResult(
            game_id=game_id, game_type=game_type, finished_at=finished_at, sides=sides,
            totals=int_totals(totals, sides), winner=winner or "", match_id=match_id,
        ))
    matches = [
        MatchOutcome(
            match_id=match_id, game_type=game_type, finished_at=finished_at,
            player_totals={int(player): int(total) for player, total in (player_totals or {}).items()},
            winners=frozenset(int(player) for player in (winners or ())),
        )
        for (finished_at, _, _), (match_id, game_type, _, _, player_totals, winners) in rows.matches
    ]
    return LeagueFacts(games=games, matches=matches, seats=seats, rulesets=rulesets)


def hands_of(league_id: int, game_ids: Iterable[int] | None = None) -> Iterator[tuple[int, Any, Any]]:
    """(game id, record, details) of every hand of the league's finished games (or of these games)."""
    hands = Hand.objects.filter(game__league_id=league_id, game__status=Game.Status.FINISHED)
    if game_ids is not None:
        hands = hands.filter(game_id__in=list(game_ids))
    return hands.order_by().values_list("game_id", "record", "details").iterator(chunk_size=BATCH)


def figures_of(league_id: int, facts: LeagueFacts,
               only_these_games: bool = False) -> tuple[dict[tuple[str, int], dict[str, int]], int]:
    """Player figures counted from the hands of the games in ``facts`` (and the number of hands).

    ``only_these_games``: read just those games' hands (a few new games) rather than the league's.
    """
    builder = FiguresBuilder()
    hands = 0
    if only_these_games and not facts.rulesets:
        return builder.figures(), 0
    for game_id, record, details in hands_of(league_id, facts.rulesets if only_these_games else None):
        ruleset = facts.rulesets.get(game_id)
        if ruleset is None:  # finished after the games were read; counted by the next run
            continue
        hands += 1
        builder.add_hand(ruleset, facts.seats[game_id], record, details)
    return builder.figures(), hands

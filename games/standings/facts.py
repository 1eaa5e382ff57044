"""Reading a league's finished games, Trumps matches and hands from the database, in bulk.

The rows are read once (``values_list``, no model instances) and serve twice: as the facts the
arithmetic works on (:class:`GameResult`, :class:`MatchOutcome`), and as the fingerprints the
watermark is made of. A result's fingerprint is a hash of its whole stored row, ``updated_at``
included, so a correction or an undo (which saves the game) changes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import Game, Hand, Match

from .figures import FiguresBuilder
from .results import GameResult, MatchOutcome, int_totals, seat_sides

BATCH = 2000
SEATED = ("north_id", "east_id", "south_id", "west_id")
GAME_FIELDS = ("id", "game_type", *SEATED, "options__partnerships", "totals", "winner", "finished_at", "started_at",
               "match_id", "hand_count", "updated_at")
MATCH_FIELDS = ("id", "game_type", "finished_at", "started_at", "player_totals", "winners")
DIGEST_MODULUS = 2**64
GAME_FINISHED_AT, GAME_STARTED_AT = GAME_FIELDS.index("finished_at"), GAME_FIELDS.index("started_at")
MATCH_FINISHED_AT, MATCH_STARTED_AT = MATCH_FIELDS.index("finished_at"), MATCH_FIELDS.index("started_at")

Order = tuple[datetime, int, int]


@dataclass(frozen=True)
class FinishedRows:
    """A league's finished games and matches as stored, each with its place in game order."""

    games: list[tuple[Order, tuple]]
    matches: list[tuple[Order, tuple]]

    def after(self, order: Order | None) -> FinishedRows:
        """The results that come after ``order`` in game order (all of them for ``None``)."""
        if order is None:
            return self
        return FinishedRows(games=[item for item in self.games if item[0] > order],
                            matches=[item for item in self.matches if item[0] > order])

    def before(self, order: Order | None) -> FinishedRows:
        """The results up to and including ``order`` (none for ``None``)."""
        if order is None:
            return FinishedRows(games=[], matches=[])
        return FinishedRows(games=[item for item in self.games if item[0] <= order],
                            matches=[item for item in self.matches if item[0] <= order])

    @property
    def last(self) -> Order | None:
        orders = [order for order, _ in self.games] + [order for order, _ in self.matches]
        return max(orders, default=None)

    def __len__(self) -> int:
        return len(self.games) + len(self.matches)

    def digest(self) -> int:
        """The sum of the rows' fingerprints, modulo 2**64: the same whatever order they were read in."""
        return digest_sum(row for _, row in (*self.games, *self.matches))


def digest_sum(rows: Iterable[tuple]) -> int:
    return sum(fingerprint(row) for row in rows) % DIGEST_MODULUS


def fingerprint(row: Sequence[Any]) -> int:
    """A 64-bit hash of a stored row (its ``repr``: ids, JSON values and datetimes as read)."""
    return int.from_bytes(hashlib.blake2b(repr(tuple(row)).encode(), digest_size=8).digest(), "big")


def finished_rows(league_id: int) -> FinishedRows:
    """Every finished game and finished Trumps match of the league. Two queries."""
    games = [
        ((row[GAME_FINISHED_AT] or row[GAME_STARTED_AT], 0, row[0]), row)
        for row in Game.objects.filter(league_id=league_id, status=Game.Status.FINISHED).order_by()
        .values_list(*GAME_FIELDS).iterator(chunk_size=BATCH)
    ]
    matches = [
        ((row[MATCH_FINISHED_AT] or row[MATCH_STARTED_AT], 1, row[0]), row)
        for row in Match.objects.filter(league_id=league_id, status=Match.Status.FINISHED).order_by()
        .values_list(*MATCH_FIELDS)
    ]
    return FinishedRows(games=games, matches=matches)


def plays_in_partnerships(value: Any) -> bool:
    """``options.partnerships`` as stored (JSON true/false, missing for games that always have them)."""
    return not (value is False or value == "false" or value == 0)


@dataclass(frozen=True)
class LeagueFacts:
    """Finished games and matches as values, with each game's seating for counting its hands."""

    games: list[GameResult]
    matches: list[MatchOutcome]
    seats: dict[int, dict[str, int]]
    partnerships: dict[int, bool]


def facts_of(rows: FinishedRows) -> LeagueFacts:
    games: list[GameResult] = []
    seats: dict[int, dict[str, int]] = {}
    partnerships: dict[int, bool] = {}
    for (finished_at, _, _), (game_id, game_type, north, east, south, west, partners, totals, winner, _, _,
                              match_id, _, _) in rows.games:
        seating = {"N": north, "E": east, "S": south, "W": west}
        in_partnerships = plays_in_partnerships(partners)
        sides = seat_sides(seating, in_partnerships)
        seats[game_id] = seating
        partnerships[game_id] = in_partnerships
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
    return LeagueFacts(games=games, matches=matches, seats=seats, partnerships=partnerships)


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
    game_types = {game.game_id: game.game_type for game in facts.games}
    builder = FiguresBuilder()
    hands = 0
    if only_these_games and not game_types:
        return builder.figures(), 0
    for game_id, record, details in hands_of(league_id, game_types if only_these_games else None):
        if game_id not in game_types:  # finished after the games were read; counted by the next run
            continue
        hands += 1
        builder.add_hand(game_types[game_id], facts.seats[game_id], record, details,
                         partnerships=facts.partnerships[game_id])
    return builder.figures(), hands

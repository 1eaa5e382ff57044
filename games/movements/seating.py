"""Tables and rounds: who sits where, and who sits out.

A table seats four players at N, E, S and W; partners sit opposite (N with S, E with W), as in
the rules engine. A round is the night's tables (numbered from 1 in order) and the players sitting
it out. Both are frozen values over whatever the caller uses for a player (a name, an id): anything
hashable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from games.rules.errors import DomainError, shown

SEATS: tuple[str, ...] = ("N", "E", "S", "W")

P = TypeVar("P", bound=Hashable)


class MovementError(DomainError):
    """A movement that cannot be made from what was given; the message says which player or round and why."""


def named(player: Hashable) -> str:
    return player if isinstance(player, str) else shown(player)


def refuse_repeats(players: Iterable[Hashable], where: str) -> None:
    repeated = [player for player, times in Counter(players).items() if times > 1]
    if repeated:
        raise MovementError(f"{named(repeated[0])} is listed more than once {where}")


@dataclass(frozen=True)
class Table(Generic[P]):
    """Four players: North and South against East and West."""

    north: P
    east: P
    south: P
    west: P

    def __post_init__(self) -> None:
        refuse_repeats(self.players, "at one table")

    @property
    def players(self) -> tuple[P, P, P, P]:
        """The players in seat order: N, E, S, W."""
        return (self.north, self.east, self.south, self.west)

    @property
    def seats(self) -> dict[str, P]:
        return dict(zip(SEATS, self.players, strict=True))

    @property
    def north_south(self) -> tuple[P, P]:
        return (self.north, self.south)

    @property
    def east_west(self) -> tuple[P, P]:
        return (self.east, self.west)

    def seat_of(self, player: P) -> str:
        """The seat ``player`` takes at this table.

        >>> Table("Ann", "Bob", "Cid", "Dee").seat_of("Bob")
        'E'
        """
        try:
            return SEATS[self.players.index(player)]
        except ValueError:
            raise MovementError(f"{named(player)} does not sit at this table") from None

    def partner_of(self, player: P) -> P:
        """The player sitting opposite ``player``."""
        return self.players[(SEATS.index(self.seat_of(player)) + 2) % 4]

    def opponents_of(self, player: P) -> tuple[P, P]:
        """The two players on the other side, the one on ``player``'s left first."""
        seat = SEATS.index(self.seat_of(player))
        return (self.players[(seat + 1) % 4], self.players[(seat + 3) % 4])

    def partnerships(self) -> tuple[tuple[P, P], tuple[P, P]]:
        return (self.north_south, self.east_west)


@dataclass(frozen=True)
class Round(Generic[P]):
    """One round of a night: its tables (table 1 first) and who sits it out."""

    tables: tuple[Table[P], ...]
    sitting_out: tuple[P, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "sitting_out", tuple(self.sitting_out))
        refuse_repeats(self.players, "in one round")

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone in the round: the tables' players in table and seat order, then those sitting out."""
        return tuple(player for table in self.tables for player in table.players) + self.sitting_out

    @property
    def seated(self) -> tuple[P, ...]:
        return tuple(player for table in self.tables for player in table.players)

    def table_number(self, player: P) -> int | None:
        """The number of the table ``player`` sits at (from 1), or ``None`` if they sit this round out.

        >>> night = Round((Table("Ann", "Bob", "Cid", "Dee"), Table("Eve", "Fay", "Gus", "Hal")), ("Ida",))
        >>> night.table_number("Gus"), night.table_number("Ida")
        (2, None)
        """
        for number, table in enumerate(self.tables, start=1):
            if player in table.players:
                return number
        if player in self.sitting_out:
            return None
        raise MovementError(f"{named(player)} is not in this round")

    def table_of(self, player: P) -> Table[P] | None:
        number = self.table_number(player)
        return None if number is None else self.tables[number - 1]


def substitute(round_: Round[P], leaving: P, arriving: P) -> Round[P]:
    """``round_`` with ``arriving`` in the seat ``leaving`` had.

    A player who was sitting the round out may take the seat (they then no longer sit out); a player
    already at a table may not. Record the round as it was finally played: from then on the substitute
    counts as having partnered and opposed that table.

    >>> night = Round((Table("Ann", "Bob", "Cid", "Dee"),), ("Eve",))
    >>> substitute(night, "Bob", "Eve")
    Round(tables=(Table(north='Ann', east='Eve', south='Cid', west='Dee'),), sitting_out=())
    """
    if leaving == arriving:
        raise MovementError(f"{named(leaving)} cannot take their own seat")
    if arriving in round_.seated:
        raise MovementError(f"{named(arriving)} already has a seat this round")
    if round_.table_number(leaving) is None:
        raise MovementError(f"{named(leaving)} sits this round out: there is no seat to take")
    tables = tuple(
        Table(*(arriving if player == leaving else player for player in table.players)) for table in round_.tables
    )
    return Round(tables, tuple(player for player in round_.sitting_out if player != arriving))


def meetings(round_: Round[P]) -> tuple[frozenset[frozenset[frozenset[P]]], frozenset[P]]:
    """A round as who partners and opposes whom and who sits out: the same whatever the table numbers."""
    tables = frozenset(
        frozenset((frozenset(table.north_south), frozenset(table.east_west))) for table in round_.tables
    )
    return tables, frozenset(round_.sitting_out)


def pair_key(first: Hashable, second: Hashable) -> frozenset[Hashable]:
    return frozenset((first, second))


@dataclass
class Tally:
    """How often each two players have partnered and opposed, and how often each has sat out, so far."""

    partnered: Counter[frozenset[Hashable]] = field(default_factory=Counter)
    opposed: Counter[frozenset[Hashable]] = field(default_factory=Counter)
    sat_out: Counter[Hashable] = field(default_factory=Counter)
    played: Counter[Hashable] = field(default_factory=Counter)
    # The number of the round each player last sat out (from 1); absent if they never have.
    last_sat_out: dict[Hashable, int] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Iterable[Round[P]]) -> Tally:
        tally = cls()
        for number, round_ in enumerate(rounds, start=1):
            tally.add(round_, number)
        return tally

    def add(self, round_: Round[P], number: int) -> None:
        for table in round_.tables:
            for first, second in table.partnerships():
                self.partnered[pair_key(first, second)] += 1
            for first in table.north_south:
                for second in table.east_west:
                    self.opposed[pair_key(first, second)] += 1
            self.played.update(table.players)
        self.sat_out.update(round_.sitting_out)
        for player in round_.sitting_out:
            self.last_sat_out[player] = number


def all_pairs(players: Sequence[P]) -> Iterator[frozenset[Hashable]]:
    for index, first in enumerate(players):
        for second in players[index + 1 :]:
            yield pair_key(first, second)


@dataclass(frozen=True)
class Movement(Generic[P]):
    """A night's rounds, how many rounds make a full cycle for its count, and how the rounds were made."""

    rounds: tuple[Round[P], ...]
    cycle: int
    description: str

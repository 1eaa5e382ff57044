"""A club night's standings: each player's (or, in a pairs night, each pair's) results round by round, their
total and their wins, worked out from the night's games as they stand (docs/club-night.md, "The night's
standings"). Pure arithmetic over plain values, like the league tables: a correction to one of the night's games
after the night changes what these say.

- A player's result in a round is their side's at their table: won, lost, drawn (a game of a fixed number of
  hands ended level), still being played, or abandoned (counts for nothing); or they sat the round out, or were
  not there. A substitute's round counts for whoever sat in the seat when the game ended.
- ``points``: the sum of their side's final totals over the games finished; ``won``, ``drawn``, ``lost``: of
  those games.
- Ranked by wins (a draw half a win), then points (the higher, or the lower where the game's lowest total wins),
  then check-in order; equal wins and points share a place.

>>> from games.rules import get_ruleset
>>> rules = get_ruleset("smudge")
>>> table = TableResult(round=1, table=1, sides={"NS": (1, 3), "EW": (2, 4)}, totals={"NS": 21, "EW": 15},
...                     status="finished", winner="NS", ruleset=rules)
>>> lines = night_standings([RoundPlayed(number=1, tables=(table,), sitting_out=(5,))], [1, 2, 3, 4, 5])
>>> [(line.who, line.place, line.won, line.points) for line in lines]
[((1,), 1, 1, 21), ((3,), 1, 1, 21), ((2,), 3, 0, 15), ((4,), 3, 0, 15), ((5,), 5, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.rules import Ruleset

WON, LOST, DRAWN, PLAYING, ABANDONED, SAT_OUT = "won", "lost", "drawn", "playing", "abandoned", "sat_out"


@dataclass(frozen=True)
class TableResult:
    """A table's game as it stands: who sits on each side (player ids), the totals, the status and the winner."""

    round: int
    table: int
    sides: Mapping[str, tuple[int, ...]]
    totals: Mapping[str, int]
    status: str  # a game's status: in_progress, finished or abandoned
    winner: str
    ruleset: Ruleset
    game_id: int | None = None
    hands: int = 0

    def side_of(self, players: Sequence[int]) -> str | None:
        """The side one of ``players`` sits on."""
        return next((side for side, seated in self.sides.items() if set(players) & set(seated)), None)

    def result_for(self, side: str) -> str:
        if self.status == "abandoned":
            return ABANDONED
        if self.status != "finished":
            return PLAYING
        if not self.winner:
            return DRAWN
        return WON if side == self.winner else LOST


@dataclass(frozen=True)
class RoundPlayed:
    number: int
    tables: tuple[TableResult, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class RoundEntry:
    """One line's round: where they sat and how it went (``table`` None when they sat out or were not there)."""

    round: int
    result: str | None  # None: not there that round
    table: int | None = None
    side: str | None = None
    points: int | None = None
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    game_id: int | None = None


@dataclass(frozen=True)
class NightLine:
    """A player's (or a pair's) night: ``who`` are the player ids (a pair's, or one player's)."""

    key: int
    who: tuple[int, ...]
    rounds: tuple[RoundEntry, ...]
    points: int
    won: int
    drawn: int
    lost: int
    place: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def sat_out(self) -> int:
        return sum(1 for entry in self.rounds if entry.result == SAT_OUT)


def entry_for(round_: RoundPlayed, who: Sequence[int]) -> RoundEntry:
    for table in round_.tables:
        side = table.side_of(who)
        if side is None:
            continue
        mine = set(table.sides[side])
        return RoundEntry(round=round_.number, result=table.result_for(side), table=table.table, side=side,
                          points=table.totals.get(side, 0),
                          partners=tuple(player for player in table.sides[side] if player not in who),
                          opponents=tuple(player for other, seated in table.sides.items() if other != side
                                          for player in seated if player not in mine),
                          game_id=table.game_id)
    if set(who) & set(round_.sitting_out):
        return RoundEntry(round=round_.number, result=SAT_OUT)
    return RoundEntry(round=round_.number, result=None)


def line_of(key: int, who: tuple[int, ...], rounds: Sequence[RoundPlayed]) -> NightLine:
    entries = tuple(entry_for(round_, who) for round_ in rounds)
    counted = [entry for entry in entries if entry.result in (WON, LOST, DRAWN)]
    return NightLine(key=key, who=who, rounds=entries, points=sum(entry.points or 0 for entry in counted),
                     won=sum(entry.result == WON for entry in counted),
                     drawn=sum(entry.result == DRAWN for entry in counted),
                     lost=sum(entry.result == LOST for entry in counted))


def ranked(lines: list[NightLine], lower_wins: bool) -> list[NightLine]:
    """The lines in order, each with its place (equal wins and points share one)."""
    def score(line: NightLine) -> tuple[float, int]:
        return (-(line.won + line.drawn / 2), line.points if lower_wins else -line.points)

    ordered = sorted(enumerate(lines), key=lambda item: (score(item[1]), item[0]))
    out: list[NightLine] = []
    for index, (_, line) in enumerate(ordered):
        place = out[-1].place if out and score(out[-1]) == score(line) else index + 1
        out.append(NightLine(**{**line.__dict__, "place": place}))
    return out


def night_standings(rounds: Sequence[RoundPlayed], players: Sequence[int], *,
                    pairs: Mapping[int, tuple[int, ...]] | None = None, lower_wins: bool = False) -> list[NightLine]:
    """Every player's line (``players`` in check-in order), or with ``pairs`` (pair number -> its players, in the
    order the pairs came) every pair's, ranked."""
    if pairs is not None:
        lines = [line_of(number, tuple(who), rounds) for number, who in pairs.items()]
    else:
        lines = [line_of(player, (player,), rounds) for player in players]
    return ranked(lines, lower_wins)

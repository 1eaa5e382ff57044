"""Head-to-head and partner records: one player's results with each partner and against each opponent.

Pure arithmetic over :class:`GameResult` values (no database), per game type:

- Every finished game the player sat in counts once in their line for its game type. A game whose
  winner is not one of its sides cannot come from play and is not counted (as in the league tables).
- A *partner* is the other player on the player's side; games played alone (cutthroat Spades, where
  each side is one seat) have none. Every player on another side is an *opponent*: one or two per
  game in a partnership game, three in cutthroat Spades.
- ``won``: games the player's side won; ``drawn``: games of a fixed number of hands that ended level;
  ``lost``: the others (``played − won − drawn``), so in cutthroat Spades a game won by a third player is
  lost against both the others.
- With a partner, ``points_for`` is the final total of their side and ``points_against`` the best
  final total among the other sides (the league tables' rule). Against an opponent, ``points_for`` is
  the player's side's total and ``points_against`` the opponent's side's total. The margin is how far
  the player's side finished ahead of that total, in the game's own direction (in a game where a
  lower total wins, finishing lower is finishing ahead).
- The *best partnership* is, among partners with at least ``minimum`` games together, the one with the
  highest win rate; ties go to more games played, then the higher average margin, then the lower
  player id. The *worst* is the lowest win rate among them, ties broken the same way (more games, the
  lower average margin, the lower id) among the others: it is named only when at least two
  partnerships qualify, and is never the best one again (even when all of them are level).

>>> from datetime import datetime, timezone
>>> at = datetime(2025, 1, 1, tzinfo=timezone.utc)
>>> from games.rules import get_ruleset
>>> game = GameResult.of(get_ruleset("smudge"), game_id=1, finished_at=at, seating={"N": 1, "E": 2, "S": 3, "W": 4},
...                      totals={"NS": 21, "EW": 15}, winner="NS")
>>> [smudge] = player_records(1, [game])
>>> [(line.other_id, line.won, line.points_for, line.points_against) for line in smudge.partners]
[(3, 1, 21, 15)]
>>> [(line.other_id, line.won) for line in smudge.opponents]
[(2, 1), (4, 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .results import GameResult

# Games together before a partnership can be called a player's best or worst.
MINIMUM_PARTNERSHIP_GAMES = 3


@dataclass(frozen=True)
class Record:
    """The player's results with (or against) one other player."""

    other_id: int
    played: int
    won: int
    points_for: int
    points_against: int
    margin: int
    drawn: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won - self.drawn

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_margin(self) -> float:
        return self.margin / self.played if self.played else 0.0


@dataclass(frozen=True)
class GameTypeRecords:
    """One game type: the player's own results, their partners and opponents, best and worst partnership.

    ``partners`` and ``opponents`` are ordered by games played (most first), then games won, then id.
    """

    game_type: str
    played: int
    won: int
    partners: tuple[Record, ...]
    opponents: tuple[Record, ...]
    best_partnership: Record | None
    worst_partnership: Record | None
    drawn: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won - self.drawn


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    points_for: int = 0
    points_against: int = 0
    margin: int = 0

    def add(self, *, won: bool, points_for: int, points_against: int, margin: int, drawn: bool = False) -> None:
        self.played += 1
        self.won += won
        self.drawn += drawn
        self.points_for += points_for
        self.points_against += points_against
        self.margin += margin


@dataclass
class _GameTypeTally:
    own: _Tally = field(default_factory=_Tally)
    partners: dict[int, _Tally] = field(default_factory=dict)
    opponents: dict[int, _Tally] = field(default_factory=dict)


def player_records(player_id: int, games: Iterable[GameResult], *, minimum: int = MINIMUM_PARTNERSHIP_GAMES,
                   order: Mapping[str, int] | None = None) -> list[GameTypeRecords]:
    """The player's records in each game type they played (games they did not sit in are ignored).

    ``order``: where each game type comes in the list (unknown or missing types last, then by name);
    without it, by game type name.
    """
    tallies: dict[str, _GameTypeTally] = {}
    for game in games:
        side = next((side for side, players in game.sides.items() if player_id in players), None)
        if side is None or not game.counted:
            continue
        tally = tallies.setdefault(game.game_type, _GameTypeTally())
        won = side == game.winner
        own_total = game.totals.get(side, 0)
        against = game.against(side)
        margin = game.margin(side, against)
        drawn = game.drawn
        tally.own.add(won=won, points_for=own_total, points_against=against, margin=margin, drawn=drawn)
        for partner in game.sides[side]:
            if partner != player_id:
                tally.partners.setdefault(partner, _Tally()).add(won=won, points_for=own_total,
                                                                 points_against=against, margin=margin, drawn=drawn)
        for other_side, players in game.sides.items():
            if other_side == side:
                continue
            their_total = game.totals.get(other_side, 0)
            for opponent in players:
                tally.opponents.setdefault(opponent, _Tally()).add(
                    won=won, points_for=own_total, points_against=their_total, margin=game.margin(side, their_total),
                    drawn=drawn)
    rank = order or {}
    return [records_of(game_type, tally, minimum)
            for game_type, tally in sorted(tallies.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))]


def records_of(game_type: str, tally: _GameTypeTally, minimum: int) -> GameTypeRecords:
    partners = listed(tally.partners)
    best, worst = best_and_worst(partners, minimum)
    return GameTypeRecords(game_type=game_type, played=tally.own.played, won=tally.own.won, partners=partners,
                           opponents=listed(tally.opponents), best_partnership=best, worst_partnership=worst,
                           drawn=tally.own.drawn)


def listed(tallies: dict[int, _Tally]) -> tuple[Record, ...]:
    records = [Record(other_id=other, played=tally.played, won=tally.won, points_for=tally.points_for,
                      points_against=tally.points_against, margin=tally.margin, drawn=tally.drawn)
               for other, tally in tallies.items()]
    return tuple(sorted(records, key=lambda record: (-record.played, -record.won, record.other_id)))


def best_and_worst(partners: Iterable[Record], minimum: int) -> tuple[Record | None, Record | None]:
    """The best and worst of the partnerships with at least ``minimum`` games (the worst only if two qualify)."""
    qualified = [record for record in partners if record.played >= max(minimum, 1)]
    if not qualified:
        return None, None
    best = min(qualified, key=lambda r: (-r.win_rate, -r.played, -r.average_margin, r.other_id))
    if len(qualified) < 2:
        return best, None
    others = [record for record in qualified if record is not best]
    worst = min(others, key=lambda r: (r.win_rate, -r.played, r.average_margin, r.other_id))
    return best, worst

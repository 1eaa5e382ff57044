"""League tables: played, won, lost, points and streaks, per player and per partnership.

Pure arithmetic over :class:`GameResult` and :class:`MatchOutcome` values.

- A player's line in a game type counts every finished game they sat in, partnership or
  cutthroat. A partnership's line (an unordered pair of players) counts the partnership games
  they played as partners, whatever seats they sat in.
- Points for are the final total of the player's side; points against are the best final total
  among the other sides (in a partnership game, simply the other side's): the highest, or the
  lowest in a game where a lower total wins. The margin of a game is how far the side finished
  ahead of that total, so it is positive for the better of the two whichever way the game counts,
  and a cutthroat winner's margin is its lead over the runner-up.
- The streak is the run of equal results at the end of the history: ``"W3"``, ``"L1"``, ``"D1"``.
- A drawn game (one of a fixed number of hands that ended level, docs/standings.md) counts as played, and as
  neither won nor lost; its points count as any game's.
- Trumps matches add match figures to each player's Trumps line: matches played and won
  (co-winners of a tied match each win it) and the sum of their match totals.
- Any other finished game whose winner is not one of its sides cannot come from play and is not counted.

>>> from datetime import datetime, timezone
>>> at = datetime(2025, 1, 1, tzinfo=timezone.utc)
>>> from games.rules import get_ruleset
>>> game = GameResult.of(get_ruleset("smudge"), game_id=1, finished_at=at, seating={"N": 1, "E": 2, "S": 3, "W": 4},
...                      totals={"NS": 21, "EW": 15}, winner="NS")
>>> line = next(line for line in league_table([game]) if line.player_id == 1 and line.partner_id is None)
>>> line.won, line.points_for, line.points_against, line.average_margin, line.streak
(1, 21, 15, 6.0, 'W1')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .results import GameResult, MatchOutcome

WIN, LOSS, DRAW = "W", "L", "D"


@dataclass
class Tally:
    """A running line of the table; feed it results in game order."""

    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    margin: int = 0
    last_result: str = ""
    run: int = 0
    last_played: datetime | None = None
    matches_played: int = 0
    matches_won: int = 0
    match_points: int = 0

    @classmethod
    def resume(cls, *, played: int, won: int, lost: int, points_for: int, points_against: int,
               average_margin: float, streak: str, last_played: datetime | None, matches_played: int = 0,
               matches_won: int = 0, match_points: int = 0) -> Tally:
        """The tally a stored line was made from, to add later results to (``streak`` is ``"W3"`` or ``""``).

        The margins add up to a whole number, which the stored average gives back exactly once multiplied
        by the games played and rounded."""
        return cls(played=played, won=won, lost=lost, points_for=points_for, points_against=points_against,
                   margin=round(average_margin * played), last_result=streak[:1], run=int(streak[1:] or 0),
                   last_played=last_played,
                   matches_played=matches_played, matches_won=matches_won, match_points=match_points)

    def add_game(self, *, result: str, points_for: int, points_against: int, margin: int, at: datetime) -> None:
        """One game's result (``WIN``, ``LOSS`` or ``DRAW``), in game order."""
        self.played += 1
        self.won += result == WIN
        self.lost += result == LOSS
        self.points_for += points_for
        self.points_against += points_against
        self.margin += margin
        self.run = self.run + 1 if result == self.last_result else 1
        self.last_result = result
        self.last_played = at if self.last_played is None else max(self.last_played, at)

    def add_match(self, *, won: bool, points: int) -> None:
        self.matches_played += 1
        self.matches_won += won
        self.match_points += points


@dataclass(frozen=True)
class StandingLine:
    """One line of a league table, ready to store."""

    game_type: str
    player_id: int
    partner_id: int | None
    played: int
    won: int
    lost: int
    win_rate: float
    points_for: int
    points_against: int
    average_margin: float
    streak: str
    last_played: datetime | None
    matches_played: int = 0
    matches_won: int = 0
    match_points: int = 0

    @property
    def is_partnership(self) -> bool:
        return self.partner_id is not None


@dataclass
class TableBuilder:
    """Collects tallies keyed by (game type, player, partner or None)."""

    tallies: dict[tuple[str, int, int | None], Tally] = field(default_factory=dict)

    def tally(self, game_type: str, player: int, partner: int | None = None) -> Tally:
        if partner is not None and partner < player:
            player, partner = partner, player
        key = (game_type, player, partner)
        if key not in self.tallies:
            self.tallies[key] = Tally()
        return self.tallies[key]

    def add_game(self, game: GameResult) -> None:
        if not game.counted:
            return
        for side, players in game.sides.items():
            points_against = game.against(side)
            outcome = DRAW if game.drawn else WIN if side == game.winner else LOSS
            result: dict[str, Any] = {"result": outcome, "points_for": game.totals.get(side, 0),
                                      "points_against": points_against, "margin": game.margin(side, points_against),
                                      "at": game.finished_at}
            for player in players:
                self.tally(game.game_type, player).add_game(**result)
            if game.partnerships:
                self.tally(game.game_type, *players).add_game(**result)

    def add_match(self, match: MatchOutcome) -> None:
        for player, total in match.player_totals.items():
            self.tally(match.game_type, player).add_match(won=player in match.winners, points=total)

    def lines(self) -> list[StandingLine]:
        return [line_of(key, tally) for key, tally in sorted(self.tallies.items(), key=line_sort_key)]


def line_sort_key(item: tuple[tuple[str, int, int | None], Tally]) -> tuple[str, int, int]:
    (game_type, player, partner), _ = item
    return (game_type, player, -1 if partner is None else partner)


def line_of(key: tuple[str, int, int | None], tally: Tally) -> StandingLine:
    game_type, player, partner = key
    played = tally.played
    return StandingLine(
        game_type=game_type,
        player_id=player,
        partner_id=partner,
        played=played,
        won=tally.won,
        lost=tally.lost,
        win_rate=tally.won / played if played else 0.0,
        points_for=tally.points_for,
        points_against=tally.points_against,
        average_margin=tally.margin / played if played else 0.0,
        streak=f"{tally.last_result}{tally.run}" if tally.run else "",
        last_played=tally.last_played,
        matches_played=tally.matches_played,
        matches_won=tally.matches_won,
        match_points=tally.match_points,
    )


def league_table(games: Iterable[GameResult], matches: Iterable[MatchOutcome] = ()) -> list[StandingLine]:
    """Every line of a league's tables, from its finished games and Trumps matches (any order)."""
    builder = TableBuilder()
    for game in sorted(games, key=lambda game: game.order):
        builder.add_game(game)
    for match in sorted(matches, key=lambda match: match.order):
        builder.add_match(match)
    return builder.lines()

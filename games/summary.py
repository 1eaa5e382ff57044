"""Where a game stands, derived once from its row: the summary every door shows.

The table page, the home page's rows, the spectator board, the API and the responses stored for
idempotent retries all read a game's totals, extras, status, winner, next dealer and sides from
:func:`game_summary`, so that no two places work them out differently. The same goes for the words:
a stored hand's score explained (:func:`hand_explanation`) and what each side needs (:func:`game_needs`),
both said by the game's ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.models import Game, Hand
from games.rules import Extra, GameState, ScoredHand
from games.rules.explaining import Explanation, Needs


@dataclass(frozen=True)
class SideSummary:
    """One side (a partnership, or a seat playing alone): its seats, total, extras, and whether it won."""

    key: str
    seats: tuple[str, ...]
    total: int
    extras: tuple[tuple[Extra, int], ...]
    winner: bool


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    game_type: str
    status: str
    hand_count: int
    totals: dict[str, int]
    # Every extra the game keeps ({"bags": {"NS": 3, "EW": 1}} in Spades), by name.
    extras: dict[str, dict[str, int]]
    winner: str | None
    next_dealer: str
    sides: tuple[SideSummary, ...]

    @property
    def next_number(self) -> int:
        return self.hand_count + 1

    @property
    def in_progress(self) -> bool:
        return self.status == Game.Status.IN_PROGRESS

    @property
    def finished(self) -> bool:
        return self.status == Game.Status.FINISHED

    @property
    def abandoned(self) -> bool:
        return self.status == Game.Status.ABANDONED

    def as_payload(self) -> dict[str, Any]:
        """The game in the shape the API shows in hand results and conflicts (extras by name, e.g. ``bags``)."""
        return {
            "game": self.game_id,
            "status": self.status,
            "hand_count": self.hand_count,
            "totals": dict(self.totals),
            "winner": self.winner,
            "next_dealer": self.next_dealer,
            **{name: dict(values) for name, values in self.extras.items()},
        }


def game_state(game: Game) -> GameState:
    """The engine's state of the game, resumed from the totals stored on its row (no hands read)."""
    return game.ruleset.resume(
        totals=game.totals,
        extras=game.extras,
        hands_played=game.hand_count,
        finished=game.status == Game.Status.FINISHED,
        winner=game.winner or None,
    )


def game_summary(game: Game) -> GameSummary:
    """The summary of a game row (no query)."""
    ruleset = game.ruleset
    state = game_state(game)
    extras = {name: {side: int(count) for side, count in values.items()} for name, values in state.extras.items()}
    winner = state.winner if game.status == Game.Status.FINISHED else None
    sides = tuple(
        SideSummary(
            key=side,
            seats=ruleset.seats_of(side),
            total=state.totals[side],
            extras=tuple((extra, extras.get(extra.name, {}).get(side, 0)) for extra in ruleset.extras_shown),
            winner=winner == side,
        )
        for side in ruleset.sides
    )
    return GameSummary(
        game_id=game.pk,
        game_type=game.game_type,
        status=str(game.status),
        hand_count=game.hand_count,
        totals=dict(state.totals),
        extras=extras,
        winner=winner,
        next_dealer=state.next_dealer,
        sides=sides,
    )


def player_names(game: Game) -> dict[str, str]:
    """Each seat's player by name (the game's seats already read)."""
    return {seat: player.name for seat, player in game.seats.items()}


def hand_explanation(game: Game, hand: Hand, names: dict[str, str] | None = None) -> Explanation:
    """A stored hand's score in words, as the game's ruleset says it (no query when ``names`` is given,
    or the game's seats were read with it)."""
    scored = ScoredHand(hand.number, hand.dealer, hand.record, hand.delta, hand.totals, hand.extras or {},
                        hand.details or {})
    return game.ruleset.explain(scored, player_names(game) if names is None else names)


def game_needs(game: Game, names: dict[str, str] | None = None) -> Needs:
    """What each side needs to win, in a game still being played (nothing once it is over or abandoned)."""
    if game.status != Game.Status.IN_PROGRESS:
        return Needs()
    return game.ruleset.needs_now(game_state(game), player_names(game) if names is None else names)

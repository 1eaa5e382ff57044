"""Helpers for the standings tests: finished games played through the services, and hand-made results."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.rules import get_ruleset
from games.standings.results import GameResult, MatchOutcome

START = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)

# One hand each that ends a game at a low target, won by the side (or seat) named.
SPADES_HAND = {  # NS: contract 6, takes 7 -> 61; EW: contract 6, takes 6 -> 60
    "NS": {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}},
    "EW": {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}},
}
SMUDGE_HAND = {
    side: {"bidder": seat, "bid": 4, "high": side, "low": side, "jack": side, "game": side, "all_tricks": False}
    for side, seat in (("NS", "N"), ("EW", "E"))
}
TRUMPS_HAND = {  # 7 hearts made exactly: 5 points to the declaring side
    side: {"declarer": seat, "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7}
    for side, seat in (("NS", "N"), ("EW", "E"))
}
STINK_HAND = {  # the winner: 10 face cards and a stack of 4 -> 120; the other side 6 -> 60
    side: {"face_cards": {side: 10, other: 6}, "trump_stack": {"holder": seat, "size": 4}}
    for side, other, seat in (("NS", "EW", "N"), ("EW", "NS", "E"))
}
LOW_TARGETS = {"spades": 100, "smudge": 4, "trumps": 5, "thieving_stink": 100}
ONE_HAND = {"spades": SPADES_HAND, "smudge": SMUDGE_HAND, "trumps": TRUMPS_HAND, "thieving_stink": STINK_HAND}


@pytest.fixture
def play_game(owner, seats, league):
    """Play a league game to its end through the services: ``play_game("spades", winner="EW")``.

    Spades needs two hands to reach 100, the other games one. ``seats`` overrides the seating.
    """
    from games.services import game_start, hand_record

    default_seats, default_league = seats, league

    def play(game_type: str, *, winner: str = "NS", seats=None, league=None):
        options = {"target": LOW_TARGETS[game_type]}
        game = game_start(game_type=game_type, seats=seats or default_seats, by=owner,
                          league=league or default_league, options=options)
        for _ in range(2 if game_type == "spades" else 1):
            result = hand_record(game=game, record=ONE_HAND[game_type][winner], by=owner)
        assert result.game.status == "finished" and result.game.winner == winner
        return result.game

    return play


@pytest.fixture
def make_player(owner, league):
    from games.services import player_create

    def make(name: str):
        return player_create(name=name, by=owner, league=league)

    return make


@pytest.fixture
def make_seats():
    """A seating from four players in N, E, S, W order."""
    def make(north, east, south, west) -> dict[str, int]:
        return {seat: player.pk for seat, player in zip("NESW", (north, east, south, west), strict=True)}

    return make


@pytest.fixture
def new_table(owner, make_seats):
    """Four new players of a league, seated N, E, S, W (a league's games seat only its own players)."""
    from games.services import player_create

    def make(league) -> dict[str, int]:
        names = ("Eve", "Fay", "Gus", "Hal")
        return make_seats(*(player_create(name=name, by=owner, league=league) for name in names))

    return make


@pytest.fixture
def recompute(league):
    from games.standings.services import league_standings_recompute

    def run(for_league=None):
        return league_standings_recompute(league_id=(for_league or league).pk)

    return run


def game(game_id: int, game_type: str, ns: tuple[int, int], ew: tuple[int, int], totals: tuple[int, int],
         winner: str, *, minutes: int | None = None, match_id: int | None = None) -> GameResult:
    """A hand-made finished partnership game, ``minutes`` after START (default: its id)."""
    return GameResult.of(
        get_ruleset(game_type), game_id=game_id,
        finished_at=START + timedelta(minutes=game_id if minutes is None else minutes),
        seating={"N": ns[0], "S": ns[1], "E": ew[0], "W": ew[1]}, totals={"NS": totals[0], "EW": totals[1]},
        winner=winner, match_id=match_id,
    )


def cutthroat(game_id: int, seats: tuple[int, int, int, int], totals: tuple[int, int, int, int],
              winner: str, *, minutes: int | None = None) -> GameResult:
    """A hand-made finished game of Spades without partnerships: each seat is a side of its own."""
    return GameResult.of(
        get_ruleset("spades", {"partnerships": False}), game_id=game_id,
        finished_at=START + timedelta(minutes=game_id if minutes is None else minutes),
        seating=dict(zip("NESW", seats, strict=True)), totals=dict(zip("NESW", totals, strict=True)), winner=winner,
    )


def match(match_id: int, totals: dict[int, int], winners: set[int], *, minutes: int) -> MatchOutcome:
    return MatchOutcome(match_id=match_id, game_type="trumps", finished_at=START + timedelta(minutes=minutes),
                        player_totals=totals, winners=frozenset(winners))

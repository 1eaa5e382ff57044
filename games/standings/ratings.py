"""OpenSkill ratings per player and game type, learned from a league's results in game order.

Each result is ranked by its game's rules (``Ruleset.places``): the winners first, then the others by
their final totals, the best first (the highest, or the lowest in a game where a lower total wins), equal
totals sharing a place.

- A partnership game is two teams of two: the winning side ranks first; a drawn game (one of a fixed number
  of hands ended level) ranks both sides first together, OpenSkill's tie.
- Cutthroat Spades is four players alone: the winner first, the others by their final totals.
- A match (Trumps) is four players alone, ranked by match total (co-winners share first place);
  the games inside a match are not rated again on their own. A Trumps game outside a match is
  rated as a partnership game.

Results are learned in the order (finished at, game before match, id), whatever order the
results are given in, so the ratings do not depend on which task ran first. Everyone starts at
OpenSkill's default (mu 25, sigma 25/3, Plackett-Luce model). The figure shown is the
conservative ``ordinal = mu - 3 * sigma``; a new player's ordinal is 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from .results import GameResult, MatchOutcome

Z = 3  # sigmas below mu for the conservative figure


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


@dataclass(frozen=True)
class RatedResult:
    """One result to learn from: teams of player ids and their places (0 is first)."""

    game_type: str
    teams: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    played_at: datetime
    order: tuple[datetime, int, int]
    game_id: int | None = None
    match_id: int | None = None


class RatingPoint(NamedTuple):
    """A player's rating just after one result (the ``sequence``-th of its game type).

    A named tuple rather than a frozen dataclass: a rebuild makes one per player and result rated, tens of
    thousands, and a tuple is made in a fraction of the time (a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    game_type: str
    player_id: int
    sequence: int
    game_id: int | None
    match_id: int | None
    played_at: datetime
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class Skill:
    """A player's rating after every result, and their rank in the game type (1 is best)."""

    game_type: str
    player_id: int
    mu: float
    sigma: float
    ordinal: float
    rank: int
    rated: int


@dataclass(frozen=True)
class Ratings:
    skills: list[Skill]
    history: list[RatingPoint]


def rated_results(games: Iterable[GameResult], matches: Iterable[MatchOutcome] = ()) -> list[RatedResult]:
    """What the ratings learn from, in game order: each result's teams and places as its game's rules rank them."""
    results = []
    for game in games:
        if not game.counted or game.match_id is not None:
            continue
        sides = list(game.sides)
        results.append(RatedResult(
            game_type=game.game_type, teams=tuple(tuple(game.sides[side]) for side in sides),
            places=tuple(game.places[side] for side in sides), played_at=game.finished_at, order=game.order,
            game_id=game.game_id,
        ))
    for match in matches:
        players = sorted(match.player_totals)
        if len(players) < 2:
            continue
        results.append(RatedResult(
            game_type=match.game_type, teams=tuple((player,) for player in players),
            places=tuple(match.places[player] for player in players), played_at=match.finished_at,
            order=match.order, match_id=match.match_id,
        ))
    results.sort(key=lambda result: result.order)
    return results


class RatingsBuilder:
    """Learns results one at a time, from everyone's starting ratings (OpenSkill's default unless seeded).

    ``current``, ``rated`` and ``sequence`` may be seeded with a league's stored ratings, results
    per player and results per game type, so that later results can be folded in without
    replaying the earlier ones: the numbers are the same as learning everything from the start.
    """

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or PlackettLuce()
        self.current: dict[tuple[str, int], PlackettLuceRating] = {}
        self.rated: dict[tuple[str, int], int] = defaultdict(int)
        self.sequence: dict[str, int] = defaultdict(int)
        self.history: list[RatingPoint] = []

    def seed(self, game_type: str, player: int, *, mu: float, sigma: float, rated: int) -> None:
        self.current[(game_type, player)] = self.model.rating(mu=mu, sigma=sigma)
        self.rated[(game_type, player)] = rated

    def add(self, result: RatedResult) -> None:
        game_type = result.game_type
        teams = Teams([self.current.get((game_type, player)) or self.model.rating() for player in team]
                      for team in result.teams)
        new_teams = self.model.rate(teams, ranks=[float(place) for place in result.places])
        self.sequence[game_type] += 1
        for team, new_team in zip(result.teams, new_teams, strict=True):
            for player, rating in zip(team, new_team, strict=True):
                self.current[(game_type, player)] = rating
                self.rated[(game_type, player)] += 1
                self.history.append(RatingPoint(
                    game_type=game_type, player_id=player, sequence=self.sequence[game_type],
                    game_id=result.game_id, match_id=result.match_id, played_at=result.played_at,
                    mu=rating.mu, sigma=rating.sigma, ordinal=ordinal(rating.mu, rating.sigma),
                ))

    def ratings(self) -> Ratings:
        return Ratings(skills=ranked(self.current, self.rated), history=self.history)


class Teams(list):
    """The teams handed to OpenSkill's ``rate``, which works on a deep copy of them (``copy.deepcopy``): copied
    here with each rating's own ``__deepcopy__``, the same copies, without the generic machinery's cost (a
    memo and a type dispatch per list and per rating, a few times the cost of the rating itself)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> list[list[PlackettLuceRating]]:
        return [[rating.__deepcopy__(memo) for rating in team] for team in self]


def learn(results: Iterable[RatedResult], model: PlackettLuce | None = None) -> Ratings:
    """Fold results, in the order given, into ratings, ranks and each player's history."""
    builder = RatingsBuilder(model)
    for result in results:
        builder.add(result)
    return builder.ratings()


def ranked(current: Mapping[tuple[str, int], PlackettLuceRating], rated: Mapping[tuple[str, int], int]) -> list[Skill]:
    """Skills ranked within each game type by ordinal, highest first; equal ordinals share a rank."""
    by_type: dict[str, list[tuple[float, int, PlackettLuceRating]]] = defaultdict(list)
    for (game_type, player), rating in current.items():
        # Rounded so that players with the same results, rated through different float paths, tie.
        by_type[game_type].append((round(ordinal(rating.mu, rating.sigma), 9), player, rating))
    skills = []
    for game_type in sorted(by_type):
        entries = sorted(by_type[game_type], key=lambda entry: (-entry[0], entry[1]))
        rank = 0
        for index, (value, player, rating) in enumerate(entries):
            if index == 0 or value != entries[index - 1][0]:
                rank = index + 1
            skills.append(Skill(
                game_type=game_type, player_id=player, mu=rating.mu, sigma=rating.sigma,
                ordinal=ordinal(rating.mu, rating.sigma), rank=rank, rated=rated[(game_type, player)],
            ))
    return skills


def league_ratings(games: Iterable[GameResult], matches: Iterable[MatchOutcome] = ()) -> Ratings:
    """Ratings and history for a league's finished games and matches (any order)."""
    return learn(rated_results(games, matches))

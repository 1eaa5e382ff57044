"""Recomputing a league's stored standings, ratings and figures from its games and hands.

:func:`league_standings_recompute` is the one writer of the standings tables. It works in a
single transaction that first locks the league row, so two runs for the same league (a retry, a
task queued twice, a rebuild beside an update) take turns, and the second reads what the first
committed. It recomputes everything from the stored games and hands and replaces the league's
rows, so running it once or many times, in any order, leaves the same rows: it is idempotent.
A run that dies part way rolls back and leaves the previous rows in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone

from games.models import Game, Hand, League, Match, PlayerFigures, PlayerRating, RatingChange, Standing

from .figures import FiguresBuilder
from .ratings import Ratings, league_ratings
from .results import GameResult, MatchOutcome, int_totals, seat_sides
from .tables import StandingLine, league_table

BATCH = 2000
SEATED = ("north_id", "east_id", "south_id", "west_id")


@dataclass(frozen=True)
class LeagueFacts:
    """A league's finished games and matches, read in bulk."""

    games: list[GameResult]
    matches: list[MatchOutcome]
    seats: dict[int, dict[str, int]]
    partnerships: dict[int, bool]


@dataclass(frozen=True)
class RecomputeSummary:
    league_id: int
    games: int
    matches: int
    hands: int
    standings: int
    ratings: int
    rating_changes: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def plays_in_partnerships(value: Any) -> bool:
    """``options.partnerships`` as stored (JSON true/false, missing for games that always have them)."""
    return not (value is False or value == "false" or value == 0)


def league_facts(league_id: int) -> LeagueFacts:
    games: list[GameResult] = []
    seats: dict[int, dict[str, int]] = {}
    partnerships: dict[int, bool] = {}
    rows = (
        Game.objects.filter(league_id=league_id, status=Game.Status.FINISHED)
        .order_by()
        .values_list("id", "game_type", *SEATED, "options__partnerships", "totals", "winner",
                     "finished_at", "started_at", "match_id")
    )
    for game_id, game_type, north, east, south, west, partners, totals, winner, finished_at, started_at, \
            match_id in rows.iterator(chunk_size=BATCH):
        seating = {"N": north, "E": east, "S": south, "W": west}
        in_partnerships = plays_in_partnerships(partners)
        sides = seat_sides(seating, in_partnerships)
        seats[game_id] = seating
        partnerships[game_id] = in_partnerships
        games.append(GameResult(
            game_id=game_id, game_type=game_type, finished_at=finished_at or started_at, sides=sides,
            totals=int_totals(totals, sides), winner=winner or "", match_id=match_id,
        ))
    matches = [
        MatchOutcome(
            match_id=match_id, game_type=game_type, finished_at=finished_at or started_at,
            player_totals={int(player): int(total) for player, total in (player_totals or {}).items()},
            winners=frozenset(int(player) for player in (winners or ())),
        )
        for match_id, game_type, finished_at, started_at, player_totals, winners in
        Match.objects.filter(league_id=league_id, status=Match.Status.FINISHED).order_by()
        .values_list("id", "game_type", "finished_at", "started_at", "player_totals", "winners")
    ]
    return LeagueFacts(games=games, matches=matches, seats=seats, partnerships=partnerships)


def league_hands(league_id: int) -> Iterator[tuple[int, Any, Any]]:
    """(game id, record, details) of every hand of the league's finished games."""
    return (
        Hand.objects.filter(game__league_id=league_id, game__status=Game.Status.FINISHED)
        .order_by()
        .values_list("game_id", "record", "details")
        .iterator(chunk_size=BATCH)
    )


def league_figures(league_id: int, facts: LeagueFacts) -> tuple[dict[tuple[str, int], dict[str, int]], int]:
    game_types = {game.game_id: game.game_type for game in facts.games}
    builder = FiguresBuilder()
    hands = 0
    for game_id, record, details in league_hands(league_id):
        if game_id not in game_types:  # finished after the games were read; counted by the next run
            continue
        hands += 1
        builder.add_hand(game_types[game_id], facts.seats[game_id], record, details,
                         partnerships=facts.partnerships[game_id])
    return builder.figures(), hands


def league_standings_recompute(*, league_id: int) -> RecomputeSummary:
    """Recompute and replace a league's standings, ratings, rating history and player figures.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        # The lock makes concurrent runs for this league take turns (PostgreSQL; SQLite's
        # IMMEDIATE transactions already let one writer in at a time).
        League.objects.select_for_update().only("id").get(pk=league_id)
        facts = league_facts(league_id)
        lines = league_table(facts.games, facts.matches)
        ratings = league_ratings(facts.games, facts.matches)
        figures, hands = league_figures(league_id, facts)
        store(league_id, lines, ratings, figures)
    return RecomputeSummary(
        league_id=league_id, games=len(facts.games), matches=len(facts.matches), hands=hands,
        standings=len(lines), ratings=len(ratings.skills), rating_changes=len(ratings.history),
        seconds=round(time.perf_counter() - started, 3),
    )


def store(league_id: int, lines: list[StandingLine], ratings: Ratings,
          figures: dict[tuple[str, int], dict[str, int]]) -> None:
    """Replace the league's rows with these (inside the caller's transaction)."""
    now = timezone.now()
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures):
        model.objects.filter(league_id=league_id).delete()
    Standing.objects.bulk_create(
        (Standing(
            league_id=league_id, game_type=line.game_type, player_id=line.player_id, partner_id=line.partner_id,
            played=line.played, won=line.won, lost=line.lost, win_rate=line.win_rate,
            points_for=line.points_for, points_against=line.points_against,
            average_margin=line.average_margin, streak=line.streak, last_played=line.last_played,
            matches_played=line.matches_played, matches_won=line.matches_won, match_points=line.match_points,
            computed_at=now,
        ) for line in lines),
        batch_size=BATCH,
    )
    PlayerRating.objects.bulk_create(
        (PlayerRating(
            league_id=league_id, game_type=skill.game_type, player_id=skill.player_id, mu=skill.mu,
            sigma=skill.sigma, ordinal=skill.ordinal, rank=skill.rank, rated=skill.rated, computed_at=now,
        ) for skill in ratings.skills),
        batch_size=BATCH,
    )
    RatingChange.objects.bulk_create(
        (RatingChange(
            league_id=league_id, game_type=point.game_type, player_id=point.player_id, sequence=point.sequence,
            game_id=point.game_id, match_id=point.match_id, played_at=point.played_at, mu=point.mu,
            sigma=point.sigma, ordinal=point.ordinal,
        ) for point in ratings.history),
        batch_size=BATCH,
    )
    PlayerFigures.objects.bulk_create(
        (PlayerFigures(
            league_id=league_id, game_type=game_type, player_id=player, hands=counts["hands"],
            counts={name: value for name, value in counts.items() if name != "hands"}, computed_at=now,
        ) for (game_type, player), counts in figures.items()),
        batch_size=BATCH,
    )


def standings_rebuild(*, league_slug: str | None = None,
                      on_league: Callable[[League, RecomputeSummary], None] | None = None) -> list[RecomputeSummary]:
    """Recompute every league (or the one with ``league_slug``), one transaction per league.

    Raises ``League.DoesNotExist`` for an unknown slug.
    """
    leagues = League.objects.order_by("id").only("id", "slug", "name")
    if league_slug is not None:
        leagues = leagues.filter(pk=League.objects.get(slug=league_slug).pk)
    summaries = []
    for league in leagues:
        summary = league_standings_recompute(league_id=league.pk)
        summaries.append(summary)
        if on_league is not None:
            on_league(league, summary)
    return summaries


def stale_league_ids() -> list[int]:
    """Leagues whose stored standings may be older than their latest result. Two queries.

    A league is stale when one of its games changed after its rows were computed, or when it has
    games and no rows. Any change to a game counts (a hand recorded in a game still in progress
    too), so this errs towards recomputing: a recompute is always safe, only a missed one is wrong.
    """
    changed = dict(
        Game.objects.filter(league__isnull=False).order_by().values("league_id")
        .annotate(at=Max("updated_at")).values_list("league_id", "at")
    )
    computed = dict(
        Standing.objects.order_by().values("league_id").annotate(at=Min("computed_at"))
        .values_list("league_id", "at")
    )
    return sorted(league_id for league_id, at in changed.items()
                  if computed.get(league_id) is None or computed[league_id] < at)

"""Bringing a league's stored rows right after results already counted changed: only what they touch.

A correction, an undo, a game that finished out of order (its transaction committed late) or a
result that went away changes the lines, figures and ratings of some players in one game type. For
each such game type this recomputes, from the stored games and hands:

- the table lines of the players of the changed results, and of their partnerships, from every
  finished game of that type they sat in (a line counts only its own players' games);
- those players' figures, from the hands of those games;
- the ratings from the earliest changed result on, in game order: every player's rating just before
  it is the one stored in the rating history, so the results before it are not learned again.

The rows written are exactly those a full recompute would store (the same arithmetic, the same order
of results, the same floating point steps from the same stored values). Only results in ``current``
(what the update read as the league's finished results) are counted, so the rows agree with the
fingerprints the update records, even when a result changes while it runs (the next update then
finds it changed again).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.models import PlayerFigures, PlayerRating, RatingChange, Standing

from .bulk import insert_rows
from .facts import GAME, MATCH, Order, ResultKey, ResultPrint, facts_of, figures_of, finished_rows
from .ratings import RatingsBuilder, ranked, rated_results
from .scope import Scope
from .storage import (
    FIGURES_ROW,
    RATING_CHANGE_ROW,
    RATING_FIELDS,
    STANDING_ROW,
    figures_values,
    rating_change_values,
    rating_row,
    standing_values,
    write,
)
from .tables import TableBuilder, line_of


@dataclass
class Touched:
    """What changed results touch in one game type: their players, and the first of them in game order."""

    players: set[int]
    start: Order


@dataclass(frozen=True)
class Refreshed:
    hands: int
    standings: int
    ratings: int
    rating_changes: int
    sequence: int


def refresh_game_type(scope: Scope, game_type: str, touched: Touched, current: Mapping[ResultKey, ResultPrint],
                      sequence: int, now: datetime) -> Refreshed:
    """Recompute what ``touched`` changes in one game type; ``sequence``: its rated results so far."""
    players = touched.players
    rows = finished_rows(scope, game_type=game_type, players=players).only(current)
    facts = facts_of(rows)
    standings = refresh_lines(scope, game_type, players, facts, now)
    figures, hands = figures_of(scope, facts, game_type=game_type, players=players)
    figures = {key: counts for key, counts in figures.items() if key[1] in players}
    PlayerFigures.objects.filter(**scope.rows, game_type=game_type, player_id__in=players).delete()
    insert_rows(PlayerFigures, FIGURES_ROW, figures_values(scope, figures, now))
    ratings, changes, sequence = relearn_ratings(scope, game_type, touched.start, current, sequence, now)
    return Refreshed(hands=hands, standings=standings, ratings=ratings, rating_changes=changes, sequence=sequence)


def refresh_lines(scope: Scope, game_type: str, players: Collection[int], facts, now: datetime) -> int:
    """Every line of ``players`` and of their partnerships, from all their games of the type."""
    builder = TableBuilder()
    for game in sorted(facts.games, key=lambda game: game.order):
        builder.add_game(game)
    for match in sorted(facts.matches, key=lambda match: match.order):
        builder.add_match(match)
    lines = [line_of(key, tally) for key, tally in builder.tallies.items()
             if key[1] in players or (key[2] is not None and key[2] in players)]
    Standing.objects.filter(**scope.rows, game_type=game_type).filter(
        Q(player_id__in=players, partner__isnull=True)
        | Q(partner__isnull=False) & (Q(player_id__in=players) | Q(partner_id__in=players))
    ).delete()
    return insert_rows(Standing, STANDING_ROW, (standing_values(scope, line, now) for line in lines))


def relearn_ratings(scope: Scope, game_type: str, start: Order, current: Mapping[ResultKey, ResultPrint],
                    sequence: int, now: datetime) -> tuple[int, int, int]:
    """Learn the game type's results from ``start`` on again, from the ratings stored just before it.

    Returns the ratings written, the history points written and the rated results of the type now.
    """
    # The stored history from ``start`` on: the first of it is where learning starts again.
    later = RatingChange.objects.filter(**scope.rows, game_type=game_type, played_at__gte=start[0]).values_list(
        "sequence", "played_at", "game_id", "match_id", "player_id")
    first = sequence + 1
    moved: dict[int, int] = {}  # player -> stored history points being replaced
    points = list(later)
    for number, played_at, game_id, match_id, _ in points:
        at = (played_at, GAME, game_id) if game_id is not None else (played_at, MATCH, match_id)
        if at >= start:
            first = min(first, number)
    for number, _, _, _, player in points:
        if number >= first:
            moved[player] = moved.get(player, 0) + 1

    builder = RatingsBuilder()
    builder.sequence[game_type] = first - 1
    stored = {player: (pk, (mu, sigma, value, rank, rated)) for pk, player, mu, sigma, value, rank, rated in
              PlayerRating.objects.filter(**scope.rows, game_type=game_type).values_list(
                  "pk", "player_id", *RATING_FIELDS)}
    before = {player: (mu, sigma) for player, mu, sigma in RatingChange.objects.filter(
        **scope.rows, game_type=game_type, player_id__in=list(moved), sequence__lt=first,
    ).order_by("sequence").values_list("player_id", "mu", "sigma")}
    for player, (_, (mu, sigma, _, _, rated)) in stored.items():
        if player in moved:
            rated -= moved[player]
            if rated <= 0:
                continue  # every result this player was rated on is learned again
            mu, sigma = before[player]
        builder.seed(game_type, player, mu=mu, sigma=sigma, rated=rated)

    rows = finished_rows(scope, since=start, game_type=game_type).only(current)
    facts = facts_of(rows)
    for result in rated_results(facts.games, facts.matches):
        if result.order >= start:
            builder.add(result)

    changed: list[PlayerRating] = []
    created: list[PlayerRating] = []
    kept: set[int] = set()
    for skill in ranked(builder.current, builder.rated):
        kept.add(skill.player_id)
        pk, values = stored.get(skill.player_id, (None, None))
        if values == tuple(getattr(skill, name) for name in RATING_FIELDS):
            continue
        (created if pk is None else changed).append(rating_row(scope, skill, now, pk))
    gone = [pk for player, (pk, _) in stored.items() if player not in kept]
    if gone:
        PlayerRating.objects.filter(pk__in=gone).delete()
    write(PlayerRating, changed, created, (*RATING_FIELDS, "computed_at"))
    RatingChange.objects.filter(**scope.rows, game_type=game_type, sequence__gte=first).delete()
    history = insert_rows(RatingChange, RATING_CHANGE_ROW, rating_change_values(scope, builder.history))
    return len(changed) + len(created) + len(gone), history, builder.sequence[game_type]

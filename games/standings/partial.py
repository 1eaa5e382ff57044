"""Bringing a league's stored rows right after results already counted changed: only what they touch.

A correction, an undo, a game that finished out of order (its transaction committed late) or a
result that went away changes the lines, figures and ratings of some players in one game type. For
each such game type this recomputes:

- the table lines of the players of the changed results, and of their partnerships, from every
  counted game of that type they sat in (a line counts only its own players' games)
  (:func:`refresh_game_type`); their figures change by what the changed games' hands add, the part
  each added when it was counted taken away (``CountedResult.figures``: no other game's hands are read);
- the ratings from the earliest changed result on, in game order (:func:`relearn_ratings`): every
  player's rating just before it is the one stored in the rating history, so the results before it
  are not learned again, and the results from it on are learned from their placings as counted
  (``CountedResult``), not read from the games again.

The rows written are exactly those a full recompute would store (the same arithmetic, the same order
of results, the same floating point steps from the same stored values). Only results the scope's
counted results hold are counted, so the rows agree with them, even when a result changes while an
update runs (the change's own note then brings the rows up to date with it).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from django.db.models import Count, Min, Q, QuerySet

from games.models import PlayerRating, RatingChange, Standing

from .bulk import insert_rows
from .facts import GAME, MATCH, Order, counted_since, facts_of, finished_rows
from .ratings import RatingsBuilder, ranked
from .scope import Scope
from .storage import (
    RATING_CHANGE_ROW,
    RATING_FIELDS,
    STANDING_ROW,
    rating_change_values,
    rating_row,
    standing_values,
    write,
)
from .tables import TableBuilder, line_of


def refresh_game_type(scope: Scope, game_type: str, players: Collection[int], now: datetime) -> tuple[int, list[int]]:
    """Count the lines of ``players`` in one game type again, from the results the scope counts (``CountedResult``,
    already brought up to date). Returns the standing lines written and how many lines each table (players,
    partnerships) gained (or, negative, lost)."""
    rows = finished_rows(scope, game_type=game_type, players=players, counted=True)
    return refresh_lines(scope, game_type, players, facts_of(rows), now)


def refresh_lines(scope: Scope, game_type: str, players: Collection[int], facts,
                  now: datetime) -> tuple[int, list[int]]:
    """Every line of ``players`` and of their partnerships, from all their games of the type. Returns the lines
    written and how many each table (players, partnerships) gained."""
    builder = TableBuilder()
    for game in sorted(facts.games, key=lambda game: game.order):
        builder.add_game(game)
    for match in sorted(facts.matches, key=lambda match: match.order):
        builder.add_match(match)
    lines = [line_of(key, tally) for key, tally in builder.tallies.items()
             if key[1] in players or (key[2] is not None and key[2] in players)]
    stored = Standing.objects.filter(**scope.rows, game_type=game_type)
    gone = [stored.filter(player_id__in=players, partner__isnull=True).delete()[0],
            stored.filter(Q(player_id__in=players) | Q(partner_id__in=players), partner__isnull=False).delete()[0]]
    written = insert_rows(Standing, STANDING_ROW, (standing_values(scope, line, now) for line in lines))
    made = [sum(1 for line in lines if not line.is_partnership), sum(1 for line in lines if line.is_partnership)]
    return written, [made[0] - gone[0], made[1] - gone[1]]


def first_point_from(history: QuerySet[RatingChange], start: Order, sequence: int) -> int:
    """The sequence number of the first stored history point of a result at or after ``start``, where learning
    starts again (``sequence + 1``, past the stored history, when there is none). Points of the moment ``start``
    falls on are told apart by their result, as results are ordered; those after it by the moment alone."""
    after = history.filter(played_at__gt=start[0]).aggregate(first=Min("sequence"))["first"]
    tied = [number for number, game_id, match_id in history.filter(played_at=start[0]).values_list(
        "sequence", "game_id", "match_id")
        if ((start[0], GAME, game_id) if game_id is not None else (start[0], MATCH, match_id)) >= start]
    return min([sequence + 1, *tied, *([after] if after is not None else [])])


def relearn_ratings(scope: Scope, game_type: str, start: Order, sequence: int, now: datetime) -> tuple[int, int, int]:
    """Learn the game type's counted results from ``start`` on again, from the ratings stored just before it;
    ``sequence``: the rated results of the type the stored history holds.

    Returns the ratings written, the history points written and the rated results of the type now.
    """
    stored_points = RatingChange.objects.filter(**scope.rows, game_type=game_type).order_by()
    first = first_point_from(stored_points, start, sequence)
    # player -> stored history points being replaced: counted by the database, not read point by point (the first
    # game's correction in a league of 100,000 games replaces 136,000 of them).
    moved = dict(stored_points.filter(sequence__gte=first).values_list("player_id").annotate(points=Count("id")))

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

    for counted in counted_since(scope, game_type, start):
        result = counted.rated()
        if result is not None:
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

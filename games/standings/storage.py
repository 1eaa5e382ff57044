"""Writing a league's standings rows: replacing them all, or folding new results into them.

Both run inside the caller's transaction, with the league row locked (see ``services``), and
build the rows from the same arithmetic (``tables``, ``ratings``, ``figures``), so folding a new
result into the stored rows gives exactly the rows a full recompute would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime

from django.db.models import Model

from games.models import CountedResult, PlayerFigures, PlayerRating, RatingChange, Standing

from .bulk import insert_rows, update_rows
from .facts import BATCH, Figures, LeagueFacts, ResultKey, ResultPrint
from .ratings import RatedResult, RatingPoint, Ratings, RatingsBuilder, Skill, ranked
from .scope import Scope
from .tables import StandingLine, TableBuilder, Tally, line_of

StandingKey = tuple[str, int, int | None]

STANDING_FIELDS = ("played", "won", "lost", "win_rate", "points_for", "points_against", "average_margin", "streak",
                   "last_played", "matches_played", "matches_won", "match_points")
RATING_FIELDS = ("mu", "sigma", "ordinal", "rank", "rated")


STANDING_ROW = ("league_id", "season_id", "game_type", "player_id", "partner_id", *STANDING_FIELDS, "computed_at")
RATING_ROW = ("league_id", "season_id", "game_type", "player_id", *RATING_FIELDS, "computed_at")
RATING_CHANGE_ROW = ("league_id", "season_id", "game_type", "player_id", "sequence", "game_id", "match_id", "played_at", "mu",
                     "sigma", "ordinal")
FIGURES_ROW = ("league_id", "season_id", "game_type", "player_id", "hands", "counts", "computed_at")
COUNTED_ROW = ("league_id", "season_id", "kind", "result_id", "game_type", "finished_at", "fingerprint", "placing",
               "figures")


def standing_row(scope: Scope, line: StandingLine, now: datetime, pk: int | None = None) -> Standing:
    return Standing(
        pk=pk, **scope.rows, game_type=line.game_type, player_id=line.player_id, partner_id=line.partner_id,
        **{name: getattr(line, name) for name in STANDING_FIELDS}, computed_at=now,
    )


def standing_values(scope: Scope, line: StandingLine, now: datetime) -> tuple:
    return (scope.league_id, scope.season_id, line.game_type, line.player_id, line.partner_id,
            *(getattr(line, name) for name in STANDING_FIELDS), now)


def rating_row(scope: Scope, skill: Skill, now: datetime, pk: int | None = None) -> PlayerRating:
    return PlayerRating(
        pk=pk, **scope.rows, game_type=skill.game_type, player_id=skill.player_id,
        **{name: getattr(skill, name) for name in RATING_FIELDS}, computed_at=now,
    )


def rating_values(scope: Scope, skill: Skill, now: datetime) -> tuple:
    return (scope.league_id, scope.season_id, skill.game_type, skill.player_id, *(getattr(skill, name) for name in RATING_FIELDS), now)


def rating_change_values(scope: Scope, history: Iterable[RatingPoint]) -> Iterator[tuple]:
    for point in history:
        yield (scope.league_id, scope.season_id, point.game_type, point.player_id, point.sequence, point.game_id, point.match_id,
               point.played_at, point.mu, point.sigma, point.ordinal)


def figures_row(scope: Scope, game_type: str, player: int, counts: dict[str, int], now: datetime,
                pk: int | None = None) -> PlayerFigures:
    return PlayerFigures(
        pk=pk, **scope.rows, game_type=game_type, player_id=player, hands=counts["hands"],
        counts={name: value for name, value in counts.items() if name != "hands"}, computed_at=now,
    )


def figures_values(scope: Scope, figures: Figures, now: datetime) -> Iterator[tuple]:
    for (game_type, player), counts in figures.items():
        yield (scope.league_id, scope.season_id, game_type, player, counts["hands"],
               {name: value for name, value in counts.items() if name != "hands"}, now)


def count_results(scope: Scope, prints: Iterable[ResultPrint]) -> int:
    """Record that the stored rows now count these results, as they are now (fingerprint and placing)."""
    return insert_rows(CountedResult, COUNTED_ROW, ((scope.league_id, scope.season_id, *result) for result in prints))


def forget_results(scope: Scope, keys: Iterable[ResultKey]) -> None:
    """The stored rows no longer count these results (as they were)."""
    by_kind: dict[int, list[int]] = {}
    for kind, result_id in keys:
        by_kind.setdefault(kind, []).append(result_id)
    for kind, ids in by_kind.items():
        for start in range(0, len(ids), BATCH):
            CountedResult.objects.filter(**scope.rows, kind=kind, result_id__in=ids[start:start + BATCH]).delete()


def replace_rows(scope: Scope, lines: list[StandingLine], ratings: Ratings, figures: Figures,
                 now: datetime, counted: Iterable[ResultPrint]) -> None:
    """Replace every standings row of the scope with these, counting ``counted``."""
    for model in (Standing, PlayerRating, RatingChange, PlayerFigures, CountedResult):
        model.objects.filter(**scope.rows).delete()
    insert_rows(Standing, STANDING_ROW, (standing_values(scope, line, now) for line in lines))
    insert_rows(PlayerRating, RATING_ROW, (rating_values(scope, skill, now) for skill in ratings.skills))
    insert_rows(RatingChange, RATING_CHANGE_ROW, rating_change_values(scope, ratings.history))
    insert_rows(PlayerFigures, FIGURES_ROW, figures_values(scope, figures, now))
    count_results(scope, counted)


Sizes = dict[str, list[int]]  # per game type, how many lines each table has: [players, partnerships]


def sizes_of(lines: Iterable[StandingLine]) -> Sizes:
    sizes: Sizes = {}
    for line in lines:
        sizes.setdefault(line.game_type, [0, 0])[line.is_partnership] += 1
    return sizes


def grown(sizes: Sizes, by: Sizes, sign: int = 1) -> Sizes:
    """``sizes`` with ``by``'s lines added (or, ``sign`` -1, taken away); game types left with none dropped."""
    out = {kind: list(counts) for kind, counts in sizes.items()}
    for kind, (players, partnerships) in by.items():
        counts = out.setdefault(kind, [0, 0])
        counts[0] += sign * players
        counts[1] += sign * partnerships
    return {kind: counts for kind, counts in out.items() if any(counts)}


def fold_in(scope: Scope, new: LeagueFacts, figures: Figures, now: datetime) -> tuple[int, Sizes]:
    """Add results that come after everything in the stored rows (in game order) to the tables and figures.

    ``new``: the new finished games and matches; ``figures``: what their hands count. Reads only the rows the
    new results touch. Returns the standing lines written and the lines added to each table. (Their ratings:
    ``fold_ratings``.)
    """
    written, added = fold_tables(scope, new, now)
    fold_figures(scope, figures, now)
    return written, added


def players_of(new: LeagueFacts) -> set[int]:
    players = {player for game in new.games for side in game.sides.values() for player in side}
    return players | {player for match in new.matches for player in match.player_totals}


def fold_tables(scope: Scope, new: LeagueFacts, now: datetime) -> tuple[int, Sizes]:
    game_types = {game.game_type for game in new.games} | {match.game_type for match in new.matches}
    players = players_of(new)
    stored: dict[StandingKey, tuple[int, Tally]] = {}
    rows = Standing.objects.filter(**scope.rows, game_type__in=game_types, player_id__in=players).values_list(
        "pk", "game_type", "player_id", "partner_id", "played", "won", "lost", "points_for", "points_against",
        "average_margin", "streak", "last_played", "matches_played", "matches_won", "match_points",
    )
    for pk, game_type, player, partner, played, won, lost, points_for, points_against, average_margin, streak, \
            last_played, matches_played, matches_won, match_points in rows:
        if partner is not None and partner not in players:
            continue
        stored[(game_type, player, partner)] = (pk, Tally.resume(
            played=played, won=won, lost=lost, points_for=points_for, points_against=points_against,
            average_margin=average_margin, streak=streak,
            last_played=last_played, matches_played=matches_played, matches_won=matches_won,
            match_points=match_points,
        ))
    builder = TableBuilder(tallies={key: replace(tally) for key, (_, tally) in stored.items()})
    for game in sorted(new.games, key=lambda game: game.order):
        builder.add_game(game)
    for match in sorted(new.matches, key=lambda match: match.order):
        builder.add_match(match)
    changed: list[Standing] = []
    created: list[Standing] = []
    for key, tally in builder.tallies.items():
        pk, before = stored.get(key, (None, None))
        if tally == before:
            continue
        row = standing_row(scope, line_of(key, tally), now, pk)
        (created if pk is None else changed).append(row)
    write(Standing, changed, created, (*STANDING_FIELDS, "computed_at"))
    added: Sizes = {}
    for row in created:
        added.setdefault(row.game_type, [0, 0])[row.partner_id is not None] += 1
    return len(changed) + len(created), added


def fold_ratings(scope: Scope, results: list[RatedResult], sequences: dict[str, int],
                 now: datetime) -> tuple[int, int, dict[str, int]]:
    """Learn rated results that come after every one the stored ratings learned (in game order, of their game
    types), from the stored ratings: returns the ratings and history points written, and the rated results per
    game type afterwards. Reads the ratings of their game types, to rank them again."""
    game_types = {result.game_type for result in results}
    builder = RatingsBuilder()
    builder.sequence.update(sequences)
    stored: dict[tuple[str, int], tuple[int, tuple]] = {}
    rows = PlayerRating.objects.filter(**scope.rows, game_type__in=game_types).values_list(
        "pk", "game_type", "player_id", *RATING_FIELDS
    )
    for pk, game_type, player, mu, sigma, ordinal, rank, rated in rows:
        stored[(game_type, player)] = (pk, (mu, sigma, ordinal, rank, rated))
        builder.seed(game_type, player, mu=mu, sigma=sigma, rated=rated)
    for result in results:
        builder.add(result)
    changed: list[PlayerRating] = []
    created: list[PlayerRating] = []
    for skill in ranked(builder.current, builder.rated):
        pk, before = stored.get((skill.game_type, skill.player_id), (None, None))
        if before == tuple(getattr(skill, name) for name in RATING_FIELDS):
            continue
        row = rating_row(scope, skill, now, pk)
        (created if pk is None else changed).append(row)
    write(PlayerRating, changed, created, (*RATING_FIELDS, "computed_at"))
    history = insert_rows(RatingChange, RATING_CHANGE_ROW, rating_change_values(scope, builder.history))
    return len(changed) + len(created), history, {**sequences, **builder.sequence}


def fold_figures(scope: Scope, figures: Figures, now: datetime) -> int:
    """Add these counts (or, negative, take them away) to the players' stored figures; a player left with no
    hand of the game type has none."""
    if not figures:
        return 0
    game_types = {game_type for game_type, _ in figures}
    players = {player for _, player in figures}
    stored = {
        (game_type, player): (pk, hands, counts)
        for pk, game_type, player, hands, counts in PlayerFigures.objects.filter(
            **scope.rows, game_type__in=game_types, player_id__in=players,
        ).values_list("pk", "game_type", "player_id", "hands", "counts")
    }
    changed: list[PlayerFigures] = []
    created: list[PlayerFigures] = []
    gone: list[int] = []
    for (game_type, player), counts in figures.items():
        pk, hands, before = stored.get((game_type, player), (None, 0, {}))
        total = Counter({**before, "hands": hands})
        total.update(counts)
        if total["hands"] <= 0:
            if pk is not None:
                gone.append(pk)
            continue
        # Every name the game counts, in the order a full count gives them.
        row = figures_row(scope, game_type, player, {name: int(total[name]) for name in counts}, now, pk)
        (created if pk is None else changed).append(row)
    if gone:
        PlayerFigures.objects.filter(pk__in=gone).delete()
    write(PlayerFigures, changed, created, ("hands", "counts", "computed_at"))
    return len(changed) + len(created) + len(gone)


def write(model: type[Model], changed: list[Model], created: list[Model], fields: tuple[str, ...]) -> None:
    if changed:
        update_rows(model, fields, changed)
    if created:
        model.objects.bulk_create(created, batch_size=BATCH)

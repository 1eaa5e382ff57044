"""Keeping a league's stored standings, ratings and figures up to date with its results.

A league's rows come in scopes (``scope.Scope``): its all-time rows, and the rows of each of its seasons,
which count only the results that finished within the season's dates. Each scope is kept exactly as
described below, with its own watermark and counted results; a run for the league brings every scope
concerned up to date.

:func:`league_standings_update` (the task's service) and :func:`league_standings_recompute` (the
rebuild's) are the only writers of the standings tables. Each works in transactions that first lock
the league row, so two runs for the same league (a retry, a task queued twice, a rebuild beside an
update) take turns, and the second reads what the first committed.

The recompute computes everything from the stored games and hands and replaces the league's rows.
The update does only what the league's changes need. Every change to a result is noted, in the
transaction that makes it (``ChangedResult``: a game finished, corrected or undone); the update reads
those notes, not the league's results, and compares the games noted (and their matches) as they are
now with how the rows count them (``CountedResult``: a fingerprint and a placing each). New results
after every counted one (in game order) are folded into the stored rows; otherwise the lines and
figures of the players of the changed results are counted again (``partial``). Either way the work is
proportional to the changes and their players, not to the league.

Ratings follow each later result, so a change that moves a placing (who won) early in the league
means learning that game type again from there. That part runs in a second transaction, once the
tables are committed: the first marks the game type (``ratings_from`` on the watermark), the second
learns it again from the counted placings and clears the mark. Tables are right as soon as the first
commits; ratings when the second does (its time grows with the rated results after the change).
A correction that keeps every placing (a score, not a winner) changes no rating at all.

Either way the rows are those a recompute would store, so running an update once or many times, in
any order, leaves the same rows: it is idempotent. A run that dies part way rolls back and leaves the
previous rows (and the notes) in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import ChangedResult, Game, League, Season
from games.models.standings import SeasonWatermark, StandingsWatermark, Watermark
from games.rules import SEATS

from .facts import (
    GAME,
    MATCH,
    SEATED,
    Order,
    ResultKey,
    ResultPrint,
    counted_prints,
    facts_of,
    figures_of,
    finished_rows,
    last_counted,
    player_figures,
    vector_of,
)
from .partial import refresh_game_type, relearn_ratings
from .ratings import RatedResult, league_ratings
from .scope import Scope
from .storage import (
    Sizes,
    count_results,
    fold_figures,
    fold_in,
    fold_ratings,
    forget_results,
    grown,
    replace_rows,
    sizes_of,
)
from .tables import league_table

# More changed results than this are recomputed with the league rather than brought up to date one by one.
FOLD_LIMIT = 200


@dataclass(frozen=True)
class RecomputeSummary:
    """What a run did: ``mode`` is "recompute", "incremental" (new results folded in), "partial" (the players of
    changed results counted again) or "unchanged" (nothing new).

    The counts are the scope's (games, matches) and what this run wrote (hands read, standing lines, ratings,
    rating changes); ``reason`` says why an update could not be incremental. ``season_id`` is None for the
    league's all-time rows; a run for a league lists what it did for each of its seasons it touched in
    ``seasons``. ``tables_seconds``: when the tables were committed (the ratings, if learned again, after).
    """

    league_id: int
    games: int
    matches: int
    hands: int
    standings: int
    ratings: int
    rating_changes: int
    seconds: float
    mode: str = "recompute"
    reason: str = ""
    season_id: int | None = None
    seasons: tuple[RecomputeSummary, ...] = ()
    tables_seconds: float = 0.0
    # Whether ratings are left to be learned again (``ratings_from``), after the tables are committed.
    marked: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def changed(self) -> bool:
        """Whether the run wrote anything, for the league or one of its seasons."""
        return self.mode != "unchanged" or any(season.changed for season in self.seasons)


def lock_league(league_id: int) -> None:
    """Lock the league row until the transaction ends (raises ``League.DoesNotExist``).

    The lock makes runs for this league take turns (PostgreSQL; SQLite's IMMEDIATE transactions
    already let one writer in at a time).
    """
    League.lock(league_id)


def seasons_of(league_id: int) -> QuerySet[Season]:
    """The league's seasons, oldest first, each with ``computed``: whether its rows have a watermark, and
    ``marked``: whether its watermark has ratings to learn again."""
    watermark = SeasonWatermark.objects.filter(season=OuterRef("pk"))
    return (Season.objects.filter(league_id=league_id).order_by("starts_on", "id")
            .annotate(computed=Exists(watermark), marked=Exists(watermark.exclude(ratings_from={}))))


def league_standings_recompute(*, league_id: int) -> RecomputeSummary:
    """Recompute and replace a league's standings, ratings, rating history and player figures: all time, and
    each season's.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        notes = list(ChangedResult.objects.filter(league_id=league_id).values_list("pk", flat=True))
        summary = recompute(Scope.all_time(league_id), started)
        seasons = tuple(recompute(Scope.of(season), time.perf_counter()) for season in seasons_of(league_id))
        forget_notes(notes)
    return replace(summary, seasons=seasons, tables_seconds=summary.seconds)


def league_standings_update(*, league_id: int) -> RecomputeSummary:
    """Bring a league's stored rows up to date with the games noted as changed, doing no more than they need.

    The all-time rows first; then the rows of each season that contains a result that was added, changed
    or removed (as it was counted, or as it is now), and of every season never computed (new, or whose
    dates changed). When the all-time rows had to be recomputed, every season is brought up to date. The
    tables and figures are committed first; then any ratings to be learned again (``ratings_from``).

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        # Each note with its game's match (if any): the results the games noted decide.
        notes = list(ChangedResult.objects.filter(league_id=league_id).annotate(
            match_id=Subquery(Game.objects.filter(pk=OuterRef("game_id")).values("match_id")[:1]))
            .values_list("pk", "game_id", "match_id"))
        keys = {(GAME, game_id) for _, game_id, _ in notes} | {(MATCH, match) for _, _, match in notes if match}
        summary, moments = update_scope(Scope.all_time(league_id), keys, started)
        seasons = []
        marked = summary.marked
        for season in seasons_of(league_id):
            scope = Scope.of(season)
            if not season.computed:
                seasons.append(recompute(scope, time.perf_counter(),
                                         reason="no watermark: the season is new, or its dates changed"))
            elif moments is None or any(scope.contains(at) for at in moments):
                seasons.append(update_scope(scope, keys, time.perf_counter())[0])
                marked = marked or seasons[-1].marked
            else:
                marked = marked or season.marked
        forget_notes([pk for pk, _, _ in notes])
    tables_seconds = round(time.perf_counter() - started, 3)
    relearned = ratings_relearn(league_id=league_id) if marked else {}
    return replace(summary, seasons=tuple(seasons), tables_seconds=tables_seconds,
                   seconds=round(time.perf_counter() - started, 3),
                   rating_changes=summary.rating_changes + relearned.get(None, 0),
                   reason=summary.reason)


def forget_notes(ids: list[int]) -> None:
    for start in range(0, len(ids), 2000):
        ChangedResult.objects.filter(pk__in=ids[start:start + 2000]).delete()


def update_scope(scope: Scope, keys: set[ResultKey], started: float) -> tuple[RecomputeSummary, set[datetime] | None]:
    """Bring one scope's rows up to date with these results (inside the caller's locked transaction).

    Also returns when the results it found added, changed or removed finished (as counted and as they are
    now): the seasons those moments fall in need an update too. None when the scope was recomputed (any
    result may have changed).
    """
    watermark = watermark_of(scope)
    if watermark is None:
        return recompute(scope, started, reason=f"no watermark: the {scope.kind} was never computed"), None
    if len(keys) > FOLD_LIMIT:
        return recompute(scope, started, reason=f"more than {FOLD_LIMIT} changed results"), None
    counted = counted_prints(scope, keys)
    rows = finished_rows(scope, keys=keys)
    current = {found.key: found for found in rows.prints(facts_of(rows))}
    changes = Changes.between(counted, current)
    if not changes:
        # Nothing to do; note the check, so that the catch-up task counts the league as up to date.
        watermarks(scope).update(computed_at=timezone.now())
        return replace(summary_of(scope, watermark.games, watermark.matches, started, mode="unchanged"),
                       marked=bool(watermark.ratings_from)), set()
    moments = {found[key].at for key in changes.keys for found in (counted, current) if key in found}
    order = watermark_order(watermark)
    now = timezone.now()
    # What the new and changed games' hands add to the figures: read for those games only.
    new_rows = rows.only(changes.added | changes.changed)
    new = facts_of(new_rows)
    figures, hands = figures_of(scope, new, only_these_games=True)
    current.update((found.key, found) for found in new_rows.prints(new, figures))

    # What the rows count, first: the lines counted again below read the results it holds.
    forget_results(scope, changes.changed | changes.removed)
    count_results(scope, (current[key] for key in changes.added | changes.changed))
    games = watermark.games + sum(1 if kind == GAME else 0 for kind, _ in changes.added) - sum(
        1 if kind == GAME else 0 for kind, _ in changes.removed)
    matches = watermark.matches + sum(1 if kind == MATCH else 0 for kind, _ in changes.added) - sum(
        1 if kind == MATCH else 0 for kind, _ in changes.removed)
    if changes.changed or changes.removed:
        last = last_counted(scope)
    else:
        last = max(filter(None, (order, *(current[key].order for key in changes.added))), default=None)

    folding = changes.only_added and all(order is None or current[key].order > order for key in changes.added)
    sizes = watermark.table_sizes
    if folding:
        standings, added = fold_in(scope, new, figures.players(new.seats), now)
        sizes = grown(sizes, added)
        mode = "incremental"
    else:
        touched = touched_by(changes.keys, counted, current)
        if touched is None:
            return recompute(scope, started, reason="a counted result is gone from the database"), None
        players_of, seatings = touched
        standings = 0
        for game_type, players in players_of.items():
            written, grew = refresh_game_type(scope, game_type, players, now)
            standings += written
            sizes = grown(sizes, {game_type: grew})
        # The figures: what the changed games' hands add now, less what they added when counted.
        parts = [(figures.game_types[game_id], new.seats[game_id], counts, 1)
                 for game_id, counts in figures.counts.items()]
        parts += [(counted[key].game_type, seatings[key], vector_of(counted[key].game_type, counted[key].figures or {}),
                   -1) for key in changes.changed | changes.removed if key[0] == GAME and counted[key].figures]
        fold_figures(scope, player_figures(parts), now)
        mode = "partial"

    ratings, rating_changes, sequences, marks = plan_ratings(scope, watermark, order, counted, current, changes, now)
    save_watermark(scope, games=games, matches=matches, last=last, sequences=sequences, ratings_from=marks,
                   table_sizes=sizes)
    return replace(summary_of(scope, games, matches, started, mode=mode, hands=hands, standings=standings,
                              ratings=ratings, rating_changes=rating_changes), marked=bool(marks)), moments


def plan_ratings(scope: Scope, watermark: Watermark, order: Order | None, counted: dict[ResultKey, ResultPrint],
                 current: dict[ResultKey, ResultPrint], changes: Changes,
                 now: datetime) -> tuple[int, int, dict[str, int], dict[str, Order]]:
    """The ratings after these changes, per game type: unchanged when no placing changed (a corrected score); new
    results after every counted one folded in at once, from the stored ratings; anything else marked to be learned
    again from the earliest result concerned (``ratings_relearn``, after the tables are committed).

    Returns the ratings and history points written, the rated results per game type, and the marks.
    """
    marks = marks_of(watermark)
    moved: dict[str, list[ResultKey]] = {}
    for key in changes.keys:
        before, now_ = counted.get(key), current.get(key)
        if (before.placing if before else None) != (now_.placing if now_ else None):
            game_type = (now_ or before).game_type  # type: ignore[union-attr]
            moved.setdefault(game_type, []).append(key)
    fold: list[RatedResult] = []
    for game_type, keys in moved.items():
        if game_type not in marks and all(
                key in changes.added and (order is None or current[key].order > order) for key in keys):
            fold += [rated for key in keys if (rated := current[key].rated()) is not None]
            continue
        orders = [found[key].order for key in keys for found in (counted, current) if key in found]
        marks[game_type] = min([*orders, *([marks[game_type]] if game_type in marks else [])])
    sequences = dict(watermark.sequences)
    if not fold:
        return 0, 0, sequences, marks
    fold.sort(key=lambda result: result.order)
    ratings, history, sequences = fold_ratings(scope, fold, sequences, now)
    return ratings, history, sequences, marks


def ratings_relearn(*, league_id: int) -> dict[int | None, int]:
    """Learn again the ratings marked by an update (``ratings_from``), in every scope of the league, in one
    transaction with the league locked; clears the marks. Returns the history points written per scope (the
    season's id; None for all time). Nothing when nothing is marked."""
    written: dict[int | None, int] = {}
    with transaction.atomic():
        lock_league(league_id)
        scopes = [Scope.all_time(league_id), *(Scope.of(season) for season in seasons_of(league_id).filter(
            computed=True))]
        now = timezone.now()
        for scope in scopes:
            watermark = watermark_of(scope)
            marks = marks_of(watermark) if watermark is not None else {}
            if not marks:
                continue
            sequences = dict(watermark.sequences)  # type: ignore[union-attr]
            history = 0
            for game_type, start in sorted(marks.items()):
                _, points, sequence = relearn_ratings(scope, game_type, start, sequences.get(game_type, 0), now)
                sequences[game_type] = sequence
                history += points
            watermarks(scope).update(sequences={game_type: count for game_type, count in sequences.items() if count},
                                     ratings_from={})
            written[scope.season_id] = history
    return written


def marks_of(watermark: Watermark) -> dict[str, Order]:
    marks = {}
    for game_type, (at, kind, result_id) in (watermark.ratings_from or {}).items():
        moment = parse_datetime(at)
        assert moment is not None  # written by save_watermark
        marks[game_type] = (moment, kind, result_id)
    return marks


def watermarks(scope: Scope) -> QuerySet[Any]:
    """The scope's watermark row (none yet, or one)."""
    if scope.season_id is None:
        return StandingsWatermark.objects.filter(league_id=scope.league_id)
    return SeasonWatermark.objects.filter(season_id=scope.season_id)


def watermark_of(scope: Scope) -> Watermark | None:
    return watermarks(scope).first()


@dataclass(frozen=True)
class Changes:
    """How the results noted differ from how the stored rows count them."""

    added: frozenset[ResultKey]
    changed: frozenset[ResultKey]
    removed: frozenset[ResultKey]

    @classmethod
    def between(cls, counted: dict[ResultKey, ResultPrint], current: dict[ResultKey, ResultPrint]) -> Changes:
        return cls(
            added=frozenset(current.keys() - counted.keys()),
            changed=frozenset(key for key in counted.keys() & current.keys()
                              if counted[key].fingerprint != current[key].fingerprint
                              or counted[key].at != current[key].at),
            removed=frozenset(counted.keys() - current.keys()),
        )

    @property
    def only_added(self) -> bool:
        return not self.changed and not self.removed

    @property
    def keys(self) -> frozenset[ResultKey]:
        return self.added | self.changed | self.removed

    def __len__(self) -> int:
        return len(self.added) + len(self.changed) + len(self.removed)


def touched_by(keys: Iterable[ResultKey], counted: dict[ResultKey, ResultPrint], current: dict[ResultKey, ResultPrint],
               ) -> tuple[dict[str, set[int]], dict[ResultKey, dict[str, int]]] | None:
    """Per game type, the players of these results; and each game's seating. None if one of them is no longer in
    the database."""
    from games.models import Match

    keys = set(keys)
    game_ids = [result_id for kind, result_id in keys if kind == GAME]
    match_ids = [result_id for kind, result_id in keys if kind == MATCH]
    seatings: dict[ResultKey, dict[str, int]] = {}
    seated: dict[ResultKey, tuple[str, list]] = {}
    for game_id, game_type, *players in Game.objects.filter(pk__in=game_ids).values_list("id", "game_type", *SEATED):
        seated[(GAME, game_id)] = (game_type, players)
        seatings[(GAME, game_id)] = dict(zip(SEATS, players, strict=True))
    seated.update({(MATCH, match_id): (game_type, list((seating or {}).values())) for match_id, game_type, seating
                   in Match.objects.filter(pk__in=match_ids).values_list("id", "game_type", "seating")})
    if len(seated) != len(keys):
        return None
    touched: dict[str, set[int]] = {}
    for key in keys:
        game_type, players = seated[key]
        touched.setdefault(game_type, set()).update(int(player) for player in players)
    return touched, seatings


def watermark_order(watermark: Watermark) -> Order | None:
    if watermark.last_finished_at is None:
        return None
    return (watermark.last_finished_at, watermark.last_kind, watermark.last_id)


def recompute(scope: Scope, started: float, reason: str = "") -> RecomputeSummary:
    """Recompute the scope's rows from its results and hands (inside the caller's locked transaction)."""
    rows = finished_rows(scope)
    facts = facts_of(rows)
    lines = league_table(facts.games, facts.matches)
    ratings = league_ratings(facts.games, facts.matches)
    figures, hands = figures_of(scope, facts)
    replace_rows(scope, lines, ratings, figures.players(facts.seats), timezone.now(), rows.prints(facts, figures))
    sequences: dict[str, int] = {}
    for point in ratings.history:
        sequences[point.game_type] = max(sequences.get(point.game_type, 0), point.sequence)
    save_watermark(scope, games=len(rows.games), matches=len(rows.matches), last=rows.last,
                   sequences=sequences, ratings_from={}, table_sizes=sizes_of(lines))
    return summary_of(scope, len(rows.games), len(rows.matches), started, hands=hands, standings=len(lines),
                      ratings=len(ratings.skills), rating_changes=len(ratings.history), reason=reason)


def save_watermark(scope: Scope, *, games: int, matches: int, last: Order | None,
                   sequences: dict[str, int], ratings_from: dict[str, Order], table_sizes: Sizes) -> None:
    """Record what the stored rows now count (the last write of every run that wrote rows)."""
    model: type[Watermark] = StandingsWatermark if scope.season_id is None else SeasonWatermark
    key = {"league_id": scope.league_id} if scope.season_id is None else {"season_id": scope.season_id}
    values = {
        "games": games, "matches": matches,
        "last_finished_at": last[0] if last else None, "last_kind": last[1] if last else 0,
        "last_id": last[2] if last else 0, "sequences": sequences, "computed_at": timezone.now(),
        "ratings_from": {game_type: [at.isoformat(), kind, result_id]
                         for game_type, (at, kind, result_id) in ratings_from.items()},
        "table_sizes": table_sizes,
    }
    if not watermarks(scope).update(**values):
        model.objects.create(**key, **values)


def summary_of(scope: Scope, games: int, matches: int, started: float, *, mode: str = "recompute",
               hands: int = 0, standings: int = 0, ratings: int = 0, rating_changes: int = 0,
               reason: str = "") -> RecomputeSummary:
    return RecomputeSummary(
        league_id=scope.league_id, season_id=scope.season_id, games=games, matches=matches, hands=hands, standings=standings, ratings=ratings,
        rating_changes=rating_changes, seconds=round(time.perf_counter() - started, 3), mode=mode, reason=reason,
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
    """Leagues whose stored standings may not count their latest results. Four queries, none reading results.

    A league is stale when a change to one of its games is noted and not yet taken in (``ChangedResult``), when
    ratings are still to be learned again (``ratings_from``), when it has games and was never computed, or when
    one of its seasons has no watermark (new, or its dates changed, and the update that would compute it never
    ran). An update is always safe (and cheap when nothing changed), only a missed one is wrong.
    """
    noted = set(ChangedResult.objects.order_by().values_list("league_id", flat=True).distinct())
    marked = set(StandingsWatermark.objects.exclude(ratings_from={}).values_list("league_id", flat=True))
    marked |= set(SeasonWatermark.objects.exclude(ratings_from={}).values_list("season__league_id", flat=True))
    never = set(League.objects.filter(~Exists(StandingsWatermark.objects.filter(league=OuterRef("pk"))),
                                      Exists(Game.objects.filter(league=OuterRef("pk"))))
                .values_list("pk", flat=True))
    uncomputed = set(Season.objects.exclude(pk__in=SeasonWatermark.objects.values("season_id"))
                     .order_by().values_list("league_id", flat=True))
    return sorted(noted | marked | never | uncomputed)

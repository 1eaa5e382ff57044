"""Keeping a league's stored standings, ratings and figures up to date with its results.

A league's rows come in scopes (``scope.Scope``): its all-time rows, and the rows of each of its seasons,
which count only the results that finished within the season's dates. Each scope is kept exactly as
described below, with its own watermark; a run for the league brings every scope concerned up to date.

:func:`league_standings_update` (the task's service) and :func:`league_standings_recompute` (the
rebuild's) are the only writers of the standings tables. Each works in a single transaction that
first locks the league row, so two runs for the same league (a retry, a task queued twice, a
rebuild beside an update) take turns, and the second reads what the first committed.

The recompute computes everything from the stored games and hands and replaces the league's rows.
The update does the same unless it can do less: when every result it finds that is not folded into
the stored rows yet comes after all of those that are (in game order), and those are unchanged (the
league's :class:`StandingsWatermark` says how many there were and what they looked like), it folds
just the new results into the rows. Either way the rows are those a recompute would store, so
running an update once or many times, in any order, leaves the same rows: it is idempotent. A run
that dies part way rolls back and leaves the previous rows in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, QuerySet
from django.utils import timezone

from games.models import Game, League, Match, Season
from games.models.standings import SeasonWatermark, StandingsWatermark, Watermark

from .facts import (
    GAME,
    MATCH,
    SEATED,
    Order,
    ResultKey,
    ResultPrint,
    counted_prints,
    current_prints,
    facts_of,
    figures_of,
    finished_rows,
)
from .partial import Touched, refresh_game_type
from .ratings import league_ratings
from .scope import Scope
from .storage import count_results, fold_in, forget_results, replace_rows
from .tables import league_table

# More new or changed results than this are recomputed with the league rather than folded in.
FOLD_LIMIT = 200


@dataclass(frozen=True)
class RecomputeSummary:
    """What a run did: ``mode`` is "recompute", "incremental" or "unchanged" (nothing new).

    The counts are the scope's (games, matches) and what this run wrote (hands read, standing
    lines, ratings, rating changes); ``reason`` says why an update could not be incremental.
    ``season_id`` is None for the league's all-time rows; a run for a league lists what it did for
    each of its seasons it touched in ``seasons``.
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
    League.objects.select_for_update().only("id").get(pk=league_id)


def seasons_of(league_id: int) -> QuerySet[Season]:
    """The league's seasons, oldest first, each with ``computed``: whether its rows have a watermark."""
    return (Season.objects.filter(league_id=league_id).order_by("starts_on", "id")
            .annotate(computed=Exists(SeasonWatermark.objects.filter(season=OuterRef("pk")))))


def league_standings_recompute(*, league_id: int) -> RecomputeSummary:
    """Recompute and replace a league's standings, ratings, rating history and player figures: all time, and
    each season's.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        summary = recompute(Scope.all_time(league_id), started)
        seasons = tuple(recompute(Scope.of(season), time.perf_counter()) for season in seasons_of(league_id))
        return replace(summary, seasons=seasons)


def league_standings_update(*, league_id: int) -> RecomputeSummary:
    """Bring a league's stored rows up to date with its results, doing no more than the changes need.

    The all-time rows first; then the rows of each season that contains a result that was added, changed
    or removed (as it was counted, or as it is now), and of every season never computed (new, or whose
    dates changed). When the all-time rows had to be recomputed, every season is brought up to date.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        summary, moments = update_scope(Scope.all_time(league_id), started)
        seasons = []
        for season in seasons_of(league_id):
            scope = Scope.of(season)
            if not season.computed:
                seasons.append(recompute(scope, time.perf_counter(),
                                         reason="no watermark: the season is new, or its dates changed"))
            elif moments is None or any(scope.contains(at) for at in moments):
                seasons.append(update_scope(scope, time.perf_counter())[0])
        return replace(summary, seasons=tuple(seasons))


def update_scope(scope: Scope, started: float) -> tuple[RecomputeSummary, set[datetime] | None]:
    """Bring one scope's rows up to date (inside the caller's locked transaction).

    Also returns when the results it found added, changed or removed finished (as counted and as they are
    now): the seasons those moments fall in need an update too. None when the scope was recomputed (any
    result may have changed).
    """
    watermark = watermark_of(scope)
    if watermark is None:
        return recompute(scope, started, reason=f"no watermark: the {scope.kind} was never computed"), None
    counted = counted_prints(scope)
    if len(counted) != watermark.games + watermark.matches:
        return recompute(scope, started, reason="the results the stored rows count are not recorded"), None
    current = current_prints(scope)
    changes = Changes.between(counted, current)
    if not changes:
        # Nothing to do; note the check, so that the catch-up task counts the league as up to date.
        watermarks(scope).update(computed_at=timezone.now())
        return summary_of(scope, watermark.games, watermark.matches, started, mode="unchanged"), set()
    if len(changes) > FOLD_LIMIT:
        return recompute(scope, started, reason=f"more than {FOLD_LIMIT} new or changed results"), None
    moments = {found[key].at for key in changes.keys for found in (counted, current) if key in found}
    order = watermark_order(watermark)
    if changes.only_added and all(order is None or current[key].order > order for key in changes.added):
        return fold_new_results(scope, watermark, counted, order, started), moments
    return refresh_changed(scope, watermark, counted, current, changes, started), moments


def watermarks(scope: Scope) -> QuerySet[Any]:
    """The scope's watermark row (none yet, or one)."""
    if scope.season_id is None:
        return StandingsWatermark.objects.filter(league_id=scope.league_id)
    return SeasonWatermark.objects.filter(season_id=scope.season_id)


def watermark_of(scope: Scope) -> Watermark | None:
    return watermarks(scope).first()


@dataclass(frozen=True)
class Changes:
    """How the league's finished results differ from those its stored rows count."""

    added: frozenset[ResultKey]
    changed: frozenset[ResultKey]
    removed: frozenset[ResultKey]

    @classmethod
    def between(cls, counted: dict[ResultKey, ResultPrint], current: dict[ResultKey, ResultPrint]) -> Changes:
        return cls(
            added=frozenset(current.keys() - counted.keys()),
            changed=frozenset(key for key in counted.keys() & current.keys()
                              if counted[key].fingerprint != current[key].fingerprint),
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


def fold_new_results(scope: Scope, watermark: Watermark, counted: dict[ResultKey, ResultPrint],
                     order: Order | None, started: float) -> RecomputeSummary:
    """New results, all after those counted: added to the stored rows."""
    new = finished_rows(scope, after=order)
    facts = facts_of(new)
    figures, hands = figures_of(scope, facts, only_these_games=True)
    folded = fold_in(scope, facts, figures, watermark.sequences, timezone.now())
    count_results(scope, new.prints())
    games, matches = watermark.games + len(new.games), watermark.matches + len(new.matches)
    last = max(filter(None, (order, new.last)))
    save_watermark(scope, games=games, matches=matches, last=last, sequences=folded.sequences)
    return summary_of(scope, games, matches, started, mode="incremental", hands=hands,
                      standings=folded.standings, ratings=folded.ratings, rating_changes=folded.rating_changes)


def refresh_changed(scope: Scope, watermark: Watermark, counted: dict[ResultKey, ResultPrint],
                    current: dict[ResultKey, ResultPrint], changes: Changes, started: float) -> RecomputeSummary:
    """Results already counted changed or went away (or one finished before the last counted): the
    players and ratings they touch, recomputed (``partial``)."""
    touched = touched_by(changes.keys, counted, current)
    if touched is None:
        return recompute(scope, started, reason="a counted result is gone from the database")
    now = timezone.now()
    sequences = dict(watermark.sequences)
    hands = standings = ratings = rating_changes = 0
    for game_type, players in touched.items():
        done = refresh_game_type(scope, game_type, players, current, sequences.get(game_type, 0), now)
        sequences[game_type] = done.sequence
        hands, standings = hands + done.hands, standings + done.standings
        ratings, rating_changes = ratings + done.ratings, rating_changes + done.rating_changes
    forget_results(scope, changes.changed | changes.removed)
    count_results(scope, (current[key] for key in changes.added | changes.changed))
    now_counted = {**{key: value for key, value in counted.items() if key not in changes.removed},
                   **{key: current[key] for key in changes.added | changes.changed}}
    games = sum(1 for kind, _ in now_counted if kind == GAME)
    matches = len(now_counted) - games
    last = max((result.order for result in now_counted.values()), default=None)
    save_watermark(scope, games=games, matches=matches, last=last,
                   sequences={game_type: count for game_type, count in sequences.items() if count})
    return summary_of(scope, games, matches, started, mode="partial", hands=hands, standings=standings,
                      ratings=ratings, rating_changes=rating_changes)


def touched_by(keys: frozenset[ResultKey], counted: dict[ResultKey, ResultPrint],
               current: dict[ResultKey, ResultPrint]) -> dict[str, Touched] | None:
    """Per game type, the players of these results and the first of them in game order (as counted, or as
    they are now, whichever is earlier). None if one of them is no longer in the database."""
    game_ids = [result_id for kind, result_id in keys if kind == GAME]
    match_ids = [result_id for kind, result_id in keys if kind == MATCH]
    seated: dict[ResultKey, tuple[str, list]] = {
        (GAME, game_id): (game_type, players) for game_id, game_type, *players in
        Game.objects.filter(pk__in=game_ids).values_list("id", "game_type", *SEATED)}
    seated.update({(MATCH, match_id): (game_type, list((seating or {}).values())) for match_id, game_type, seating
                   in Match.objects.filter(pk__in=match_ids).values_list("id", "game_type", "seating")})
    if len(seated) != len(keys):
        return None
    touched: dict[str, Touched] = {}
    for key in keys:
        game_type, players = seated[key]
        orders = [found.order for found in (counted.get(key), current.get(key)) if found is not None]
        scope = touched.get(game_type)
        if scope is None:
            touched[game_type] = Touched(players={int(player) for player in players}, start=min(orders))
        else:
            scope.players.update(int(player) for player in players)
            scope.start = min(scope.start, *orders)
    return touched


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
    replace_rows(scope, lines, ratings, figures, timezone.now(), rows.prints())
    sequences: dict[str, int] = {}
    for point in ratings.history:
        sequences[point.game_type] = max(sequences.get(point.game_type, 0), point.sequence)
    save_watermark(scope, games=len(rows.games), matches=len(rows.matches), last=rows.last,
                   sequences=sequences)
    return summary_of(scope, len(rows.games), len(rows.matches), started, hands=hands, standings=len(lines),
                      ratings=len(ratings.skills), rating_changes=len(ratings.history), reason=reason)


def save_watermark(scope: Scope, *, games: int, matches: int, last: Order | None,
                   sequences: dict[str, int]) -> None:
    """Record what the stored rows now count (the last write of every run that wrote rows)."""
    model: type[Watermark] = StandingsWatermark if scope.season_id is None else SeasonWatermark
    key = {"league_id": scope.league_id} if scope.season_id is None else {"season_id": scope.season_id}
    model.objects.update_or_create(**key, defaults={
        "games": games, "matches": matches,
        "last_finished_at": last[0] if last else None, "last_kind": last[1] if last else 0,
        "last_id": last[2] if last else 0, "sequences": sequences, "computed_at": timezone.now(),
    })


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
    """Leagues whose stored standings may be older than their latest result. Three queries.

    A league is stale when one of its games changed after its rows were last brought up to date
    (its watermark), when it has games and was never computed, or when one of its seasons has no
    watermark (new, or its dates changed, and the update that would compute it never ran). Any change to a game counts (a
    hand recorded in a game still in progress too), so this errs towards updating: an update is
    always safe (and cheap when nothing changed), only a missed one is wrong.
    """
    changed = dict(
        Game.objects.filter(league__isnull=False).order_by().values("league_id")
        .annotate(at=Max("updated_at")).values_list("league_id", "at")
    )
    computed = dict(StandingsWatermark.objects.values_list("league_id", "computed_at"))
    uncomputed = set(Season.objects.exclude(pk__in=SeasonWatermark.objects.values("season_id"))
                     .order_by().values_list("league_id", flat=True))
    return sorted({league_id for league_id, at in changed.items()
                   if computed.get(league_id) is None or computed[league_id] < at} | uncomputed)

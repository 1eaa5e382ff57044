"""Keeping a league's stored standings, ratings and figures up to date with its results.

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
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.models import Game, League
from games.models.standings import StandingsWatermark

from .facts import Order, counted, digest, facts_of, figures_of, finished_rows
from .ratings import league_ratings
from .storage import fold_in, replace_rows
from .tables import league_table

# More new results than this are recomputed with the league rather than folded in one by one.
FOLD_LIMIT = 200


@dataclass(frozen=True)
class RecomputeSummary:
    """What a run did: ``mode`` is "recompute", "incremental" or "unchanged" (nothing new).

    The counts are the league's (games, matches) and what this run wrote (hands read, standing
    lines, ratings, rating changes); ``reason`` says why an update could not be incremental.
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

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def lock_league(league_id: int) -> None:
    """Lock the league row until the transaction ends (raises ``League.DoesNotExist``).

    The lock makes runs for this league take turns (PostgreSQL; SQLite's IMMEDIATE transactions
    already let one writer in at a time).
    """
    League.objects.select_for_update().only("id").get(pk=league_id)


def league_standings_recompute(*, league_id: int) -> RecomputeSummary:
    """Recompute and replace a league's standings, ratings, rating history and player figures.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        return recompute(league_id, started)


def league_standings_update(*, league_id: int) -> RecomputeSummary:
    """Bring a league's stored rows up to date with its results, folding in new results when it can.

    Raises ``League.DoesNotExist`` when there is no such league.
    """
    started = time.perf_counter()
    with transaction.atomic():
        lock_league(league_id)
        watermark = StandingsWatermark.objects.filter(league_id=league_id).first()
        if watermark is None:
            return recompute(league_id, started, reason="no watermark: the league was never computed")
        order = watermark_order(watermark)
        games, matches, prints = counted(league_id, order)
        if (games, matches) != (watermark.games, watermark.matches) or digest(prints) != watermark.digest:
            return recompute(league_id, started,
                             reason="a result already counted was changed or removed, or one finished out of order")
        new = finished_rows(league_id, after=order)
        if len(new) > FOLD_LIMIT:
            return recompute(league_id, started, reason=f"more than {FOLD_LIMIT} new results")
        games, matches = games + len(new.games), matches + len(new.matches)
        if not len(new):
            # Nothing to fold in; note the check, so that the catch-up task counts the league as up to date.
            StandingsWatermark.objects.filter(league_id=league_id).update(computed_at=timezone.now())
            return summary_of(league_id, games, matches, started, mode="unchanged")
        facts = facts_of(new)
        figures, hands = figures_of(league_id, facts, only_these_games=True)
        folded = fold_in(league_id, facts, figures, watermark.sequences, timezone.now())
        save_watermark(league_id, games=games, matches=matches, last=new.last,
                       digest=digest([*prints, *new.prints()]), sequences=folded.sequences)
    return summary_of(league_id, games, matches, started, mode="incremental", hands=hands,
                      standings=folded.standings, ratings=folded.ratings, rating_changes=folded.rating_changes)


def watermark_order(watermark: StandingsWatermark) -> Order | None:
    if watermark.last_finished_at is None:
        return None
    return (watermark.last_finished_at, watermark.last_kind, watermark.last_id)


def recompute(league_id: int, started: float, reason: str = "") -> RecomputeSummary:
    """Recompute the league's rows from its results and hands (inside the caller's locked transaction)."""
    rows = finished_rows(league_id)
    facts = facts_of(rows)
    lines = league_table(facts.games, facts.matches)
    ratings = league_ratings(facts.games, facts.matches)
    figures, hands = figures_of(league_id, facts)
    replace_rows(league_id, lines, ratings, figures, timezone.now())
    sequences: dict[str, int] = {}
    for point in ratings.history:
        sequences[point.game_type] = max(sequences.get(point.game_type, 0), point.sequence)
    save_watermark(league_id, games=len(rows.games), matches=len(rows.matches), last=rows.last,
                   digest=digest(rows.prints()), sequences=sequences)
    return summary_of(league_id, len(rows.games), len(rows.matches), started, hands=hands, standings=len(lines),
                      ratings=len(ratings.skills), rating_changes=len(ratings.history), reason=reason)


def save_watermark(league_id: int, *, games: int, matches: int, last: Order | None, digest: str,
                   sequences: dict[str, int]) -> None:
    """Record what the stored rows now count (the last write of every run that wrote rows)."""
    StandingsWatermark.objects.update_or_create(league_id=league_id, defaults={
        "games": games, "matches": matches, "digest": digest,
        "last_finished_at": last[0] if last else None, "last_kind": last[1] if last else 0,
        "last_id": last[2] if last else 0, "sequences": sequences, "computed_at": timezone.now(),
    })


def summary_of(league_id: int, games: int, matches: int, started: float, *, mode: str = "recompute",
               hands: int = 0, standings: int = 0, ratings: int = 0, rating_changes: int = 0,
               reason: str = "") -> RecomputeSummary:
    return RecomputeSummary(
        league_id=league_id, games=games, matches=matches, hands=hands, standings=standings, ratings=ratings,
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
    """Leagues whose stored standings may be older than their latest result. Two queries.

    A league is stale when one of its games changed after its rows were last brought up to date
    (its watermark), or when it has games and was never computed. Any change to a game counts (a
    hand recorded in a game still in progress too), so this errs towards updating: an update is
    always safe (and cheap when nothing changed), only a missed one is wrong.
    """
    changed = dict(
        Game.objects.filter(league__isnull=False).order_by().values("league_id")
        .annotate(at=Max("updated_at")).values_list("league_id", "at")
    )
    computed = dict(StandingsWatermark.objects.values_list("league_id", "computed_at"))
    return sorted(league_id for league_id, at in changed.items()
                  if computed.get(league_id) is None or computed[league_id] < at)

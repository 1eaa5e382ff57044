"""A league's seasons: its owners create, rename, re-date and close them; whoever may see the league reads them.

A season is a named date range (``starts_on`` to ``ends_on``, both included; no end while it is open). The
seasons of a league never overlap and their names are unique in it (whatever the case): both are checked
here, under the league's row lock, so two owners creating seasons at once take turns. Every change of a
season's dates (creating it too) drops its standings watermark in the same transaction and queues the
league's standings update, which recomputes the season's rows (``games/standings/services.py``); should
that update never run, the catch-up task finds the season without a watermark.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import transaction

from games import events, policy
from games.errors import InvalidInput, NotAllowed, StateConflict
from games.idempotency import row_once
from games.models import League, Season
from games.models.seasons import today
from games.models.standings import SeasonWatermark
from games.rules import shown

MAX_NAME = 80


class Unset:
    """A value not given (``ends_on=None`` means "open", so None cannot mean "leave it")."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = Unset()


def check_manager(league: League, by) -> None:
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners manage its seasons")


def lock(league: League) -> None:
    """Take the league's row lock: season checks and writes of one league take turns."""
    League.lock(league.pk)


def plain_name(name: Any) -> str:
    """A season's name with its spaces tidied; refused when empty or too long."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("a season needs a name, e.g. Autumn 2026", field="name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise InvalidInput(f"a season's name can be at most {MAX_NAME} characters", field="name")
    return name


def checked_name(league: League, name: Any, *, other_than: Season | None = None) -> str:
    name = plain_name(name)
    taken = Season.objects.filter(league=league, name__iexact=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than.pk)
    if taken.exists():
        raise InvalidInput(f"{league.name} already has a season named {shown(name)}; choose another name",
                           field="name")
    return name


# Seasons are dated within these years (the moments their dates stand for must exist in every time zone).
FIRST_YEAR, LAST_YEAR = 1900, 2999


def checked_date(value: Any, field: str) -> date:
    day = None
    if isinstance(value, date):
        day = value
    elif isinstance(value, str):
        try:
            day = date.fromisoformat(value.strip())
        except ValueError:
            pass
    if day is None:
        raise InvalidInput("a date is written YYYY-MM-DD, e.g. 2026-09-01", field=field)
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise InvalidInput(f"a season's dates are in the years {FIRST_YEAR} to {LAST_YEAR}", field=field)
    return day


def shown_date(day: date) -> str:
    return day.isoformat()


def check_dates(league: League, starts_on: date, ends_on: date | None, *, other_than: Season | None = None,
                field: str = "starts_on") -> None:
    """A season's dates: not ending before it starts, and overlapping none of the league's other seasons."""
    check_order(starts_on, ends_on)
    others = Season.objects.filter(league=league).order_by("starts_on", "id")
    if other_than is not None:
        others = others.exclude(pk=other_than.pk)
    for other in others:
        if overlaps(starts_on, ends_on, other):
            raise StateConflict(overlap_refusal(other), field=field)


def check_order(starts_on: date, ends_on: date | None) -> None:
    if ends_on is not None and ends_on < starts_on:
        raise InvalidInput(f"a season cannot end ({shown_date(ends_on)}) before it starts ({shown_date(starts_on)})",
                           field="ends_on")


def overlaps(starts_on: date, ends_on: date | None, other: Season) -> bool:
    """Whether the days ``starts_on`` to ``ends_on`` (open: no end) share one with ``other``'s."""
    return starts_on <= (other.ends_on or date.max) and other.starts_on <= (ends_on or date.max)


def overlap_refusal(other: Season) -> str:
    """Why dates overlapping ``other`` are refused."""
    until = f"to {shown_date(other.ends_on)}" if other.ends_on else "on, still open"
    return (f"the dates overlap {shown(other.name)} ({shown_date(other.starts_on)} {until}); a game belongs "
            "to one season, so a league's seasons cannot overlap")


def dates_changed(season: Season) -> None:
    """The season's rows no longer count what its dates contain: forget its watermark and queue the update
    that recomputes them."""
    SeasonWatermark.objects.filter(season=season).delete()
    events.publish(events.LeagueSeasonsChanged(league=season.league))


def season_create(*, league: League, name: str, by, starts_on: date | None = None, ends_on: date | None = None,
                  close_previous_on: date | None = None, idempotency_key: str | None = None) -> Season:
    """Create a season of the league (owners only).

    With ``starts_on``: the season runs from then to ``ends_on`` (open without it). Without: it is the next
    season, starting the day after the league's latest season ends; an open latest season is closed first,
    on ``close_previous_on`` (today unless given), so the new one starts the day after. A league with no
    season starts its first today. Refused when its dates overlap another season of the league, end
    before they start, or its name is taken; nothing is changed then.
    """
    request = {"league": league.pk, "name": name, "starts_on": starts_on, "ends_on": ends_on,
               "close_previous_on": close_previous_on}
    return row_once(
        user=by, scope=f"league:{league.pk}:seasons", key=idempotency_key, request=request,
        rows=Season.objects.all(),
        write=lambda: create(league=league, name=name, by=by, starts_on=starts_on, ends_on=ends_on,
                             close_previous_on=close_previous_on),
    )


@transaction.atomic
def create(*, league: League, name, by, starts_on, ends_on, close_previous_on) -> Season:
    check_manager(league, by)
    lock(league)
    name = checked_name(league, name)
    ends_on = checked_date(ends_on, "ends_on") if ends_on is not None else None
    if starts_on is not None:
        if close_previous_on is not None:
            raise InvalidInput("close_previous_on is for starting the next season: leave out starts_on",
                               field="close_previous_on")
        starts_on = checked_date(starts_on, "starts_on")
    else:
        starts_on = next_start(league, by, close_previous_on)
        if ends_on is None:
            ends_on = day_before_planned(league, starts_on)
    check_dates(league, starts_on, ends_on)
    season = Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on, created_by=by)
    dates_changed(season)
    return season


def next_start(league: League, by, close_previous_on: date | None) -> date:
    """Where the next season starts: the day after the latest one begun by today ends (closing it first if
    it is open), or today if that day is past. Seasons planned ahead are not the one the next follows."""
    latest = Season.objects.filter(league=league, starts_on__lte=today()).order_by("-starts_on", "-id").first()
    if latest is None:
        if close_previous_on is not None:
            raise InvalidInput("the league has no season to close yet", field="close_previous_on")
        return today()
    if latest.ends_on is None:
        ends_on = today() if close_previous_on is None else checked_date(close_previous_on, "close_previous_on")
        close(latest, ends_on, field="close_previous_on")
        return ends_on + timedelta(days=1)
    if close_previous_on is not None:
        raise StateConflict(f"{shown(latest.name)} is already closed (it ended on {shown_date(latest.ends_on)})",
                            field="close_previous_on")
    return max(latest.ends_on + timedelta(days=1), today())


def day_before_planned(league: League, starts_on: date) -> date | None:
    """The last day of a next season that starts on ``starts_on``: open (None), unless a season is planned to
    start later, when it runs until the day before that one."""
    planned = Season.objects.filter(league=league, starts_on__gt=starts_on).order_by("starts_on").first()
    return None if planned is None else planned.starts_on - timedelta(days=1)


def close(season: Season, ends_on: date, *, field: str = "ends_on") -> None:
    if ends_on < season.starts_on:
        raise InvalidInput(f"{shown(season.name)} cannot end ({shown_date(ends_on)}) before it starts "
                           f"({shown_date(season.starts_on)})", field=field)
    season.ends_on = ends_on
    season.save(update_fields=["ends_on"])
    dates_changed(season)


@transaction.atomic
def season_update(*, season: Season, by, name: str | None = None, starts_on: Any = UNSET, ends_on: Any = UNSET,
                  close: bool = False) -> Season:
    """Rename a season, change its dates (``ends_on=None`` opens it again), or close it (owners only).

    ``close``: the season ends on ``ends_on`` if given, else today; refused for a season already closed.
    Refused, changing nothing, when the new dates overlap another season, end before they start, or the
    new name is taken in the league.
    """
    league = season.league
    check_manager(league, by)
    lock(league)
    season.refresh_from_db()
    fields = []
    if name is not None:
        season.name = checked_name(league, name, other_than=season)
        fields.append("name")
    new_start = season.starts_on if starts_on is UNSET else checked_date(starts_on, "starts_on")
    new_end: date | None
    if close:
        if season.ends_on is not None:
            raise StateConflict(f"{shown(season.name)} is already closed (it ended on "
                                f"{shown_date(season.ends_on)})", field="close")
        new_end = today() if ends_on is UNSET or ends_on is None else checked_date(ends_on, "ends_on")
        if new_end < new_start:
            raise InvalidInput(f"{shown(season.name)} cannot end ({shown_date(new_end)}) before it starts "
                               f"({shown_date(new_start)})", field="ends_on")
    else:
        new_end = season.ends_on if ends_on is UNSET else (
            None if ends_on is None else checked_date(ends_on, "ends_on"))
    if (new_start, new_end) != (season.starts_on, season.ends_on):
        check_dates(league, new_start, new_end, other_than=season,
                    field="starts_on" if new_start != season.starts_on else "ends_on")
        season.starts_on, season.ends_on = new_start, new_end
        fields += ["starts_on", "ends_on"]
    if fields:
        season.save(update_fields=fields)
    if "starts_on" in fields:
        dates_changed(season)
    return season

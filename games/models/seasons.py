"""Seasons: named date ranges of a league (e.g. "Autumn 2026"), each with its own standings and ratings.

A finished game (or Trumps match) belongs to the season whose dates contain the day it finished, in the
project's ``TIME_ZONE``. A season with no end (``ends_on`` empty) is open: it runs on until it is closed.
The seasons of a league never overlap, and their names are unique in it (without regard to case); the
rules are in ``games/services/seasons.py``, which checks them under the league's row lock.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone

from .play import League


def today() -> date:
    """Today in the project's time zone: the day that decides which season is current."""
    return timezone.localdate(timezone=timezone.get_default_timezone())


def start_of(day: date) -> datetime:
    """The first moment of ``day`` in the project's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_default_timezone())


class SeasonQuerySet(models.QuerySet):
    def containing(self, day: date) -> SeasonQuerySet:
        return self.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day), starts_on__lte=day)

    def current(self) -> SeasonQuerySet:
        """The seasons whose dates contain today (at most one per league)."""
        return self.containing(today())


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    # The last day of the season; empty while it is open.
    ends_on = models.DateField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "league", name="one_season_name_per_league"),
            models.CheckConstraint(condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                                   name="season_ends_on_or_after_its_start"),
        ]
        indexes = [models.Index(fields=["league", "starts_on"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.league_id})"

    @property
    def is_closed(self) -> bool:
        return self.ends_on is not None

    @property
    def is_current(self) -> bool:
        return self.contains(today())

    def contains(self, day: date) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)

    @property
    def starts(self) -> datetime:
        """The season's first moment (inclusive)."""
        return start_of(self.starts_on)

    @property
    def ends(self) -> datetime | None:
        """The first moment after the season (exclusive); None while it is open."""
        return None if self.ends_on is None else start_of(self.ends_on + timedelta(days=1))

"""What one set of standings rows counts: a league's results of all time, or those of one of its seasons.

Every row of the standings tables belongs to one scope: ``season`` empty for the league's all-time rows,
the season's id for a season's. A season's scope counts only the finished results whose finish (the
start, for a result that never recorded its finish) falls within its dates, in the project's time zone;
everything else (the arithmetic, the fingerprints, the incremental update) is the same for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from games.models.seasons import Season


@dataclass(frozen=True)
class Scope:
    league_id: int
    season_id: int | None = None
    # The season's first moment (inclusive) and the first after it (exclusive; None while it is open).
    starts: datetime | None = None
    ends: datetime | None = None

    @classmethod
    def all_time(cls, league_id: int) -> Scope:
        return cls(league_id=league_id)

    @classmethod
    def of(cls, season: Season) -> Scope:
        return cls(league_id=season.league_id, season_id=season.pk, starts=season.starts, ends=season.ends)

    @property
    def rows(self) -> dict[str, Any]:
        """The filter that picks this scope's stored rows (``season_id=None`` is ``IS NULL``)."""
        return {"league_id": self.league_id, "season_id": self.season_id}

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.league_id, self.season_id)

    @property
    def kind(self) -> str:
        return "league" if self.season_id is None else "season"

    def within(self, at: str) -> Q:
        """Results whose moment ``at`` (a field or annotation) falls within the scope."""
        found = Q()
        if self.starts is not None:
            found &= Q(**{f"{at}__gte": self.starts})
        if self.ends is not None:
            found &= Q(**{f"{at}__lt": self.ends})
        return found

    def contains(self, at: datetime) -> bool:
        return (self.starts is None or at >= self.starts) and (self.ends is None or at < self.ends)

    def __str__(self) -> str:
        return f"league {self.league_id}" + (f" season {self.season_id}" if self.season_id else "")

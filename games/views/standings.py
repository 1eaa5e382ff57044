"""The league page's standings: the stored tables (``games.standings.selectors``), sorted and labelled for display.

Nothing is counted here: the standings task computes the tables, and this module only orders the
lines by the column the visitor chose and formats their figures.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import League
from games.rules import RULESETS, rulesets
from games.standings.selectors import in_matches, league_standings


def by_name(entry: dict[str, Any]) -> str:
    return entry["name"].casefold()


def rating_of(entry: dict[str, Any]) -> float:
    return entry["rating"]["ordinal"] if entry.get("rating") else float("-inf")


# Each sort is stable over the stored order (games won, then win rate, then average margin).
# ``players_only``: the sort needs a rating, which partnerships do not have.
SORTS: dict[str, Any] = {
    "won": None,
    "played": lambda entry: -entry["played"],
    "rate": lambda entry: -entry["win_rate"],
    "margin": lambda entry: -entry["average_margin"],
    "rating": lambda entry: -rating_of(entry),
    "name": by_name,
}
PLAYERS_ONLY = {"rating"}


def signed(value: float, digits: int = 1) -> str:
    """``+1.2``, ``−0.7`` (a real minus sign), ``0.0``."""
    if round(value, digits) == 0:
        return f"{0:.{digits}f}"
    return f"{value:+.{digits}f}".replace("-", "−")


def line(entry: dict[str, Any]) -> dict[str, Any]:
    """One line as the template shows it."""
    shown = {**entry, "rate_pct": round(100 * entry["win_rate"]), "margin": signed(entry["average_margin"])}
    if "player" in entry:
        shown["name"] = entry["player"]["name"]
        rating = entry.get("rating")
        shown["skill"] = f"{rating['ordinal']:.1f}".replace("-", "−") if rating else ""
    else:
        shown["name"] = " & ".join(person["name"] for person in entry["players"])
    return shown


def ordered(entries: list[dict[str, Any]], sort: str, *, players: bool) -> list[dict[str, Any]]:
    lines = [line(entry) for entry in entries]
    key = SORTS.get(sort)
    if key is None or (sort in PLAYERS_ONLY and not players):
        return lines
    return sorted(lines, key=key)


def standings_view(*, league: League, game_type: str | None, sort: str,
                   latest_finish: datetime | None) -> dict[str, Any]:
    """The tables of one game type (the one asked for, else the first with results). Two queries.

    ``latest_finish``: when the league's last game finished; tables computed before it are still
    being updated by a worker, and say so.
    """
    data = league_standings(league=league)
    tables = {table["game_type"]: table for table in data["game_types"]}
    chosen = game_type if game_type in RULESETS else next(iter(tables), next(iter(RULESETS)))
    table = tables.get(chosen, {"players": [], "partnerships": []})
    computed_at = data["computed_at"]
    updating = latest_finish is not None and (computed_at is None or computed_at < latest_finish)
    return {
        "game_type": chosen,
        "tabs": [{"code": ruleset.game_type, "name": ruleset.name, "has_results": ruleset.game_type in tables,
                  "current": chosen == ruleset.game_type} for ruleset in rulesets()],
        "players": ordered(table["players"], sort, players=True),
        "partnerships": ordered(table["partnerships"], sort, players=False),
        "computed_at": computed_at,
        "updating": updating,
        "matches": in_matches(chosen),
    }

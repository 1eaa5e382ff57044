"""League standings for the league page, counted from finished games (two queries however many).

The standings issue's ``games.standings`` selectors (ratings, recomputed by a task) did not exist
when these pages were written; this table counts games played and won per player, per game type.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games import selectors
from games.models import League
from games.rules import get_ruleset

SORTS = {
    "won": lambda row: (-row["won"], -row["rate"], row["name"].lower()),
    "played": lambda row: (-row["played"], -row["won"], row["name"].lower()),
    "rate": lambda row: (-row["rate"], -row["won"], row["name"].lower()),
    "name": lambda row: (row["name"].lower(),),
}
SEAT_COLUMNS = {"N": "north_id", "E": "east_id", "S": "south_id", "W": "west_id"}


def won_by(game: dict[str, Any], seat: str) -> bool:
    side_of = get_ruleset(game["game_type"], game["options"]).side_of
    return bool(game["winner"]) and side_of(seat) == game["winner"]


def standings_table(*, league: League, game_type: str | None, sort: str) -> list[dict[str, Any]]:
    played: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    for game in selectors.league_results(league=league, game_type=game_type):
        for seat, column in SEAT_COLUMNS.items():
            played[game[column]] += 1
            won[game[column]] += won_by(game, seat)
    players = selectors.players_by_id(ids=played)
    rows = [
        {"player": players[pk], "name": players[pk].name, "played": played[pk], "won": won[pk],
         "rate": round(100 * won[pk] / played[pk])}
        for pk in played if pk in players
    ]
    rows.sort(key=SORTS[sort])
    return rows

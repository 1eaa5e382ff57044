"""Reading a player's head-to-head and partner records: counted from their finished games on each read.

Unlike the league tables these are not stored: one query reads every finished game the player sat
in that the viewer may see (``values_list``, the four players' names joined in), and
:func:`games.standings.records.player_records` does the arithmetic. See docs/standings.md,
"Head-to-head and partner records".
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Q
from django.db.models.functions import Coalesce

from games import policy
from games.models import Game, Player, game_type_name
from games.rules import RULESETS

from .facts import BATCH, Rulesets
from .records import MINIMUM_PARTNERSHIP_GAMES, GameTypeRecords, Record, player_records
from .results import GameResult

SEATS = ("north", "east", "south", "west")
RECORD_FIELDS = ("id", "game_type", *(f"{seat}_id" for seat in SEATS), "options", "totals", "winner", "at",
                 *(f"{seat}__name" for seat in SEATS))


def records_games(*, player: Player, user, league: int | None = None, game_type: str | None = None,
                  finished_from: date | None = None, finished_until: date | None = None) -> tuple[
                      list[GameResult], dict[int, str]]:
    """The finished games ``player`` sat in that ``user`` may see, as facts, and the names of everyone in
    them. One query.

    ``league``: only that league's games (a league id; the caller checks the user may see it), else
    every league's and the casual games the user may see. ``finished_from``, ``finished_until``: only
    games finished on or after, and on or before, these days (in the site's time zone; a game with no
    finish time counts on the day it started). A season is such a range.
    """
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    games = (Game.objects.filter(seated, status=Game.Status.FINISHED, provisional=False)
             .filter(pk__in=policy.visible_games(user).values("pk"))
             .annotate(at=Coalesce("finished_at", "started_at")).order_by())
    if league is not None:
        games = games.filter(league_id=league)
    if game_type is not None:
        games = games.filter(game_type=game_type)
    if finished_from is not None:
        games = games.filter(at__date__gte=finished_from)
    if finished_until is not None:
        games = games.filter(at__date__lte=finished_until)
    results: list[GameResult] = []
    names: dict[int, str] = {}
    made = Rulesets()
    for (game_id, kind, north, east, south, west, options, totals, winner, at,
         *seat_names) in games.values_list(*RECORD_FIELDS).iterator(chunk_size=BATCH):
        if kind not in RULESETS:  # a game type no longer registered cannot be read
            continue
        seating = {"N": north, "E": east, "S": south, "W": west}
        names.update(zip(seating.values(), seat_names, strict=True))
        results.append(GameResult.of(made.of(kind, options), game_id=game_id, finished_at=at, seating=seating,
                                     totals=totals, winner=winner))
    return results, names


def player_records_view(*, player: Player, user, league: int | None = None, game_type: str | None = None,
                        finished_from: date | None = None, finished_until: date | None = None,
                        minimum: int = MINIMUM_PARTNERSHIP_GAMES) -> dict[str, Any]:
    """The player's records with each partner and against each opponent, per game type. One query. ::

        {"minimum_games": 3,
         "game_types": [{"game_type": "spades", "name": "Spades", "played", "won", "lost",
                         "partners": [{"player": {"id", "name"}, "played", "won", "lost", "win_rate",
                                       "points_for", "points_against", "average_margin"}, ...],
                         "opponents": [same], "best_partnership": same | None,
                         "worst_partnership": same | None}, ...]}

    Game types in the order games are listed, only those the player has results in, or (with
    ``game_type``) that one, even empty. Filters as :func:`records_games`.
    """
    games, names = records_games(player=player, user=user, league=league, game_type=game_type,
                                 finished_from=finished_from, finished_until=finished_until)
    lines = player_records(player.pk, games, minimum=minimum, order={kind: n for n, kind in enumerate(RULESETS)})
    if game_type is not None and not lines:
        lines = [GameTypeRecords(game_type=game_type, played=0, won=0, partners=(), opponents=(),
                                 best_partnership=None, worst_partnership=None)]
    return {"minimum_games": minimum, "game_types": [game_type_entry(line, names) for line in lines]}


def game_type_entry(line: GameTypeRecords, names: dict[int, str]) -> dict[str, Any]:
    def entry(record: Record | None) -> dict[str, Any] | None:
        if record is None:
            return None
        return {"player": {"id": record.other_id, "name": names.get(record.other_id, "")},
                "played": record.played, "won": record.won, "lost": record.lost,
                "win_rate": round(record.win_rate, 4), "points_for": record.points_for,
                "points_against": record.points_against, "average_margin": round(record.average_margin, 2)}

    return {"game_type": line.game_type, "name": game_type_name(line.game_type), "played": line.played,
            "won": line.won, "lost": line.lost,
            "partners": [entry(record) for record in line.partners],
            "opponents": [entry(record) for record in line.opponents],
            "best_partnership": entry(line.best_partnership), "worst_partnership": entry(line.worst_partnership)}

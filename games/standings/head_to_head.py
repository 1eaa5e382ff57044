"""Reading a player's head-to-head and partner records: counted from their finished games.

Unlike the league tables these are not stored: one query reads every finished game the player sat
in that the viewer may see (``values_list``, the four players' names joined in), and
:func:`games.standings.records.player_records` does the arithmetic. See docs/standings.md,
"Head-to-head and partner records".

A busy player's records take some time to count (a tenth of a second for 2,000 games), and are the same for
every visit until one of those games changes: they are kept in the cache under a key made of what they are
counted from, read by one statement (:func:`records_version`): how many games the viewer may see, the sum of
their ids, when the last of them changed, and when a player was last renamed. A game finished, corrected,
hidden or shown to the viewer, or a name changed, makes a new key; viewers who may see the same games share one.
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from games import policy
from games.kept import cached, keep
from games.models import Game, Player, game_type_name
from games.rules import RULESETS

from .facts import BATCH, Rulesets
from .records import MINIMUM_PARTNERSHIP_GAMES, GameTypeRecords, Record, player_records
from .results import GameResult

SEATS = ("north", "east", "south", "west")
# How long counted records are kept: a version nobody asks for again goes.
RECORDS_SECONDS = 600
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
    return read_records_games(counted_games(player=player, user=user, league=league, game_type=game_type,
                                            finished_from=finished_from, finished_until=finished_until))


def counted_games(*, player: Player, user, league: int | None = None, game_type: str | None = None,
                  finished_from: date | None = None, finished_until: date | None = None) -> QuerySet[Game]:
    """The games :func:`records_games` reads (its filters)."""
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    games = (Game.objects.filter(seated, status=Game.Status.FINISHED, provisional=False)
             .filter(policy.games_seen_by(user))
             .annotate(at=Coalesce("finished_at", "started_at")).order_by())
    if league is not None:
        games = games.filter(league_id=league)
    if game_type is not None:
        games = games.filter(game_type=game_type)
    if finished_from is not None:
        games = games.filter(at__date__gte=finished_from)
    if finished_until is not None:
        games = games.filter(at__date__lte=finished_until)
    return games


def read_records_games(games: QuerySet[Game]) -> tuple[list[GameResult], dict[int, str]]:
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
    """The player's records with each partner and against each opponent, per game type. Two queries (their
    version, then the games), one while the records of that version are kept. ::

        {"minimum_games": 3,
         "game_types": [{"game_type": "spades", "name": "Spades", "played", "won", "lost",
                         "partners": [{"player": {"id", "name"}, "played", "won", "lost", "win_rate",
                                       "points_for", "points_against", "average_margin"}, ...],
                         "opponents": [same], "best_partnership": same | None,
                         "worst_partnership": same | None}, ...]}

    Game types in the order games are listed, only those the player has results in, or (with
    ``game_type``) that one, even empty. Filters as :func:`records_games`.
    """
    counted = counted_games(player=player, user=user, league=league, game_type=game_type,
                            finished_from=finished_from, finished_until=finished_until)
    key = "player-records:" + hashlib.sha256(repr((
        player.pk, league, game_type, finished_from, finished_until, minimum, records_version(counted),
    )).encode()).hexdigest()
    answer = cached(key)
    if answer is not None:
        return answer
    games, names = read_records_games(counted)
    lines = player_records(player.pk, games, minimum=minimum, order={kind: n for n, kind in enumerate(RULESETS)})
    if game_type is not None and not lines:
        lines = [GameTypeRecords(game_type=game_type, played=0, won=0, partners=(), opponents=(),
                                 best_partnership=None, worst_partnership=None)]
    answer = {"minimum_games": minimum, "game_types": [game_type_entry(line, names) for line in lines]}
    keep(key, answer, RECORDS_SECONDS)
    return answer


def records_version(games: QuerySet[Game]) -> tuple:
    """What the records counted from ``games`` are made of, in one statement: the games' count, the sum of their ids
    (the set changes, it changes), the last change to any of them, and the last rename of any player."""
    renamed = Player.objects.order_by("-updated_at").values("updated_at")[:1]
    stamp = games.aggregate(games=Count("id"), ids=Sum("id"), changed=Max("updated_at"), renamed=Max(renamed))
    return tuple(stamp.values())


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

"""Reading a league's finished games, Trumps matches and hands from the database, in bulk.

The rows are read once (``values_list``, no model instances) and serve twice: as the facts the
arithmetic works on (:class:`GameResult`, :class:`MatchOutcome`), and as the fingerprints the
league's counted results are kept with (:class:`ResultPrint`). A game's fingerprint is its id,
``updated_at``, winner, hand count and match, so a correction or an undo (which saves the game)
changes it; a match's is its whole row.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from django.db import connection
from django.db.models import Case, CharField, Q, QuerySet, TextField, Value, When
from django.db.models.functions import Cast, Coalesce

from games.models import CountedResult, Game, Hand, Match
from games.rules import SEATS, Ruleset, ruleset_class, rulesets

from .figures import FiguresBuilder
from .results import GameResult, MatchOutcome
from .scope import Scope

BATCH = 2000
SEATED = ("north_id", "east_id", "south_id", "west_id")
# What a game's fingerprint is made of: ``updated`` is ``updated_at`` as the database writes it out
# (text, so that reading twenty thousand of them costs no datetime parsing). Every change the
# services make to a game saves it, and so changes ``updated_at``.
GAME_PRINT = ("id", "updated", "winner", "hand_count", "match_id")
GAME_FIELDS = ("id", "game_type", *SEATED, "options", "totals", "winner", "finished_at", "started_at",
               "match_id", "hand_count", "updated")
MATCH_FIELDS = ("id", "game_type", "finished_at", "started_at", "player_totals", "winners")
GAME_TYPE_AT = GAME_FIELDS.index("game_type")
GAME_FINISHED_AT, GAME_STARTED_AT = GAME_FIELDS.index("finished_at"), GAME_FIELDS.index("started_at")
GAME_PRINT_AT = tuple(GAME_FIELDS.index(name) for name in GAME_PRINT)
MATCH_FINISHED_AT, MATCH_STARTED_AT = MATCH_FIELDS.index("finished_at"), MATCH_FIELDS.index("started_at")

Order = tuple[datetime, int, int]
# A game sorts first at one moment. (type: ignore: without type hints for Django, mypy reads an
# IntegerChoices member as its (value, label).)
GAME, MATCH = CountedResult.Kind.GAME.value, CountedResult.Kind.MATCH.value  # type: ignore[attr-defined]
ResultKey = tuple[int, int]  # (kind, id)


class ResultPrint(NamedTuple):
    """A finished result's place in game order and its fingerprint."""

    kind: int
    result_id: int
    game_type: str
    at: datetime
    fingerprint: str

    @property
    def key(self) -> ResultKey:
        return (self.kind, self.result_id)

    @property
    def order(self) -> Order:
        return (self.at, self.kind, self.result_id)


def game_print(values: Iterable[Any]) -> str:
    return "g" + "|".join(map(str, values))


def match_print(row: tuple) -> str:
    return "m" + repr(tuple(row))


@dataclass(frozen=True)
class FinishedRows:
    """Finished games and matches as stored (``values_list`` rows), each with its place in game order."""

    games: list[tuple[Order, tuple]]
    matches: list[tuple[Order, tuple]]

    @property
    def last(self) -> Order | None:
        orders = [order for order, _ in self.games] + [order for order, _ in self.matches]
        return max(orders, default=None)

    def __len__(self) -> int:
        return len(self.games) + len(self.matches)

    def prints(self) -> list[ResultPrint]:
        return [ResultPrint(GAME, order[2], row[GAME_TYPE_AT], order[0],
                            game_print(row[index] for index in GAME_PRINT_AT)) for order, row in self.games] + [
            ResultPrint(MATCH, order[2], row[1], order[0], match_print(row)) for order, row in self.matches]

    def only(self, keys: Collection[ResultKey]) -> FinishedRows:
        """The rows of these results only."""
        return FinishedRows(games=[item for item in self.games if (GAME, item[0][2]) in keys],
                            matches=[item for item in self.matches if (MATCH, item[0][2]) in keys])


def games_of(scope: Scope) -> QuerySet:
    return (Game.objects.filter(league_id=scope.league_id, status=Game.Status.FINISHED).order_by()
            .annotate(at=Coalesce("finished_at", "started_at"), updated=Cast("updated_at", CharField()))
            .filter(scope.within("at")))


def up_to(order: Order) -> Q:
    """Games at or before ``order`` in game order (by ``at``, the finish time, then id)."""
    at, kind, last_id = order
    if kind == MATCH:
        return Q(at__lte=at)
    return Q(at__lt=at) | Q(at=at, id__lte=last_id)


def seated(players: Collection[int]) -> Q:
    """Games in which any of ``players`` sat."""
    players = list(players)
    return Q(north_id__in=players) | Q(east_id__in=players) | Q(south_id__in=players) | Q(west_id__in=players)


def finished_rows(scope: Scope, after: Order | None = None, *, since: Order | None = None,
                  game_type: str | None = None, players: Collection[int] | None = None) -> FinishedRows:
    """The scope's finished games and matches: only those after ``after`` or from ``since`` on (in game
    order), of ``game_type``, or in which any of ``players`` played, if given. Two queries."""
    players = set(players) if players is not None else None
    games = games_of(scope)
    if after is not None:
        games = games.exclude(up_to(after))
    if since is not None:
        games = games.filter(at__gte=since[0])
    if game_type is not None:
        games = games.filter(game_type=game_type)
    if players is not None:
        games = games.filter(seated(players))
    game_rows = [
        ((row[GAME_FINISHED_AT] or row[GAME_STARTED_AT], GAME, row[0]), row)
        for row in games.values_list(*GAME_FIELDS).iterator(chunk_size=BATCH)
    ]
    if since is not None:
        game_rows = [item for item in game_rows if item[0] >= since]
    match_rows = [item for item in finished_matches(scope, game_type)
                  if (after is None or item[0] > after) and (since is None or item[0] >= since)
                  and (players is None or not players.isdisjoint(int(player) for player in item[1][4] or ()))]
    return FinishedRows(games=game_rows, matches=match_rows)


def finished_matches(scope: Scope, game_type: str | None = None) -> list[tuple[Order, tuple]]:
    matches = Match.objects.filter(league_id=scope.league_id, status=Match.Status.FINISHED).order_by()
    if scope.season_id is not None:
        matches = matches.annotate(at=Coalesce("finished_at", "started_at")).filter(scope.within("at"))
    if game_type is not None:
        matches = matches.filter(game_type=game_type)
    return [((row[MATCH_FINISHED_AT] or row[MATCH_STARTED_AT], MATCH, row[0]), row)
            for row in matches.values_list(*MATCH_FIELDS)]


def current_prints(scope: Scope) -> dict[ResultKey, ResultPrint]:
    """The fingerprint of every finished result of the scope, as it is now. Two light queries (no JSON
    for the games, ``updated_at`` as text)."""
    games = games_of(scope).values_list("game_type", "at", *GAME_PRINT).iterator(chunk_size=BATCH)
    prints = {(GAME, row[2]): ResultPrint(GAME, row[2], row[0], row[1], game_print(row[2:])) for row in games}
    for (at, _, match_id), row in finished_matches(scope):
        prints[(MATCH, match_id)] = ResultPrint(MATCH, match_id, row[1], at, match_print(row))
    return prints


def counted_prints(scope: Scope) -> dict[ResultKey, ResultPrint]:
    """The results the scope's stored rows count, with the fingerprints they had then. One query."""
    rows = CountedResult.objects.filter(**scope.rows).values_list(
        "kind", "result_id", "game_type", "finished_at", "fingerprint").iterator(chunk_size=BATCH)
    return {(kind, result_id): ResultPrint(kind, result_id, game_type, at, fingerprint)
            for kind, result_id, game_type, at, fingerprint in rows}


class Rulesets:
    """The rules of each game read, made once per game type and set of options (most games share them)."""

    def __init__(self) -> None:
        self.made: dict[tuple[str, tuple], Ruleset] = {}

    def of(self, game_type: str, options: Any) -> Ruleset:
        options = options if isinstance(options, dict) else {}
        key = (game_type, tuple(sorted(options.items())))
        ruleset = self.made.get(key)
        if ruleset is None:
            ruleset = self.made[key] = ruleset_class(game_type)(options)
        return ruleset


@dataclass(frozen=True)
class LeagueFacts:
    """Finished games and matches as values, with each game's seating and rules for counting its hands."""

    games: list[GameResult]
    matches: list[MatchOutcome]
    seats: dict[int, dict[str, int]]
    rulesets: dict[int, Ruleset]


def facts_of(rows: FinishedRows) -> LeagueFacts:
    games: list[GameResult] = []
    seats: dict[int, dict[str, int]] = {}
    rulesets: dict[int, Ruleset] = {}
    made = Rulesets()
    for (finished_at, _, _), (game_id, game_type, north, east, south, west, options, totals, winner, _, _,
                              match_id, _, _) in rows.games:
        seating = {"N": north, "E": east, "S": south, "W": west}
        ruleset = made.of(game_type, options)
        seats[game_id] = seating
        rulesets[game_id] = ruleset
        games.append(GameResult.of(ruleset, game_id=game_id, finished_at=finished_at, seating=seating, totals=totals,
                                   winner=winner, match_id=match_id))
    matches = [
        MatchOutcome(
            match_id=match_id, game_type=game_type, finished_at=finished_at,
            player_totals={int(player): int(total) for player, total in (player_totals or {}).items()},
            winners=frozenset(int(player) for player in (winners or ())),
        )
        for (finished_at, _, _), (match_id, game_type, _, _, player_totals, winners) in rows.matches
    ]
    return LeagueFacts(games=games, matches=matches, seats=seats, rulesets=rulesets)


def hand_rows(scope: Scope, game_ids: Collection[int] | None = None, *, game_type: str | None = None,
              players: Collection[int] | None = None) -> Iterator[tuple[int, str, str]]:
    """(game id, record, details) of every hand of the league's finished games (or of these games, of this
    game type, or in which any of these players sat), the two JSON documents as the database writes them
    out (text); the record ``{}`` where the game's figures do not read it (``Ruleset.figures_read_record``).
    """
    hands = Hand.objects.filter(game__league_id=scope.league_id, game__status=Game.Status.FINISHED)
    if game_ids is not None:
        hands = hands.filter(game_id__in=list(game_ids))
    elif scope.season_id is not None:
        hands = hands.annotate(game_at=Coalesce("game__finished_at", "game__started_at")).filter(
            scope.within("game_at"))
    if game_type is not None:
        hands = hands.filter(game__game_type=game_type)
    if players is not None:
        players = list(players)
        hands = hands.filter(Q(game__north_id__in=players) | Q(game__east_id__in=players)
                             | Q(game__south_id__in=players) | Q(game__west_id__in=players))
    # The records of games whose figures do not read them are left unread (an empty record instead).
    reading_records = [ruleset.game_type for ruleset in rulesets() if ruleset.figures_read_record]
    record = Case(When(game__game_type__in=reading_records, then=Cast("record", TextField())), default=Value("{}"),
                  output_field=TextField())
    return streamed(hands.order_by().annotate(record_text=record, details_text=Cast("details", TextField()))
                    .values_list("game_id", "record_text", "details_text"))


def streamed(rows: QuerySet) -> Iterator[tuple]:
    """The rows of a ``values_list`` query as they arrive, a few thousand at a time.

    On PostgreSQL the server sends them in one go while they are read (psycopg's ``stream``), rather
    than in batches asked for one after another through a named cursor as ``iterator()`` does; the
    values are plain (no field converters), which is all the callers here ask for.
    """
    if connection.vendor != "postgresql":
        yield from rows.iterator(chunk_size=BATCH)
        return
    statement, params = rows.query.sql_with_params()
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.cursor() as cursor:
        yield from cursor.cursor.stream(statement, params, size=BATCH)


# What one hand adds to the figures of its game's players: (seat index in SEATS, ((figure, count), ...)) for
# each seat it adds to.
Contribution = tuple[tuple[int, tuple[tuple[str, int], ...]], ...]
SEAT_INDEX = {seat: index for index, seat in enumerate(SEATS)}


def contribution(ruleset: Ruleset, record_text: str, details_text: str) -> Contribution:
    figures = ruleset.figures(orjson.loads(record_text), orjson.loads(details_text))
    return tuple((SEAT_INDEX[seat], tuple(counts.items())) for seat, counts in figures.items() if counts)


def figures_of(scope: Scope, facts: LeagueFacts, only_these_games: bool = False, *,
               players: Collection[int] | None = None,
               game_type: str | None = None) -> tuple[dict[tuple[str, int], dict[str, int]], int]:
    """Player figures counted from the hands of the games in ``facts`` (and the number of hands).

    ``only_these_games``: read just those games' hands (a few new games) rather than the league's;
    ``players`` and ``game_type``: read the hands of the games of that type in which those players sat.
    """
    builder = FiguresBuilder()
    if only_these_games and not facts.rulesets:
        return builder.figures(), 0
    rows = hand_rows(scope, facts.rulesets if only_these_games else None, game_type=game_type, players=players)
    # A league's hands say the same few thousand things over and over (the same bids made, the same bags):
    # what a hand adds is worked out once per ruleset and pair of documents, from their text, and the text
    # of the others is not decoded at all. Each game's hand count is added to its players once, at the end.
    known: dict[tuple[Ruleset, str, str], Contribution] = {}
    hands_in: dict[int, int] = {}
    tallies_of: dict[int, tuple[dict[str, int], ...]] = {}
    rulesets, seats = facts.rulesets, facts.seats
    for game_id, record_text, details_text in rows:
        ruleset = rulesets.get(game_id)
        if ruleset is None:  # not among the results read (it finished, or changed, after they were)
            continue
        tallies = tallies_of.get(game_id)
        if tallies is None:
            tallies = tallies_of[game_id] = builder.seat_tallies(ruleset.game_type, seats[game_id])
            hands_in[game_id] = 1
        else:
            hands_in[game_id] += 1
        key = (ruleset, record_text, details_text)
        adds = known.get(key)
        if adds is None:
            adds = known[key] = contribution(ruleset, record_text, details_text)
        for seat, counts in adds:
            tally = tallies[seat]
            for name, value in counts:
                tally[name] = tally.get(name, 0) + value
    for game_id, hands in hands_in.items():
        for tally in tallies_of[game_id]:
            tally["hands"] += hands
    return builder.figures(), sum(hands_in.values())

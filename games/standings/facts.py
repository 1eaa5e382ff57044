"""Reading a league's finished games, Trumps matches and hands from the database, in bulk.

The rows are read once (``values_list``, no model instances) and serve twice: as the facts the
arithmetic works on (:class:`GameResult`, :class:`MatchOutcome`), and as what the league's counted
results are kept with (:class:`ResultPrint`): a fingerprint and a placing. A game's fingerprint is
its id, ``updated_at``, winner, hand count and match, so a correction or an undo (which saves the
game) changes it; a match's is its whole row. The placing is what the ratings learn from the result
(its teams and their places; none for a result not rated on its own), so the ratings can be learned
again from the counted results alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

import orjson
from django.db import connection
from django.db.models import Case, CharField, Exists, OuterRef, Q, QuerySet, TextField, Value, When
from django.db.models.functions import Cast, Coalesce

from games.models import CountedResult, Game, Hand, Match
from games.rules import SEATS, Ruleset, ruleset_class, rulesets

from .ratings import RatedResult, rated_results
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


# What the ratings learn from a result: {"teams": [[player, ...], ...], "places": [0, 1]}; None when the result
# is not rated on its own (a game of a match, a game whose winner is not one of its sides).
Placing = dict[str, list] | None


class ResultPrint(NamedTuple):
    """A finished result's place in game order, its fingerprint and its placing."""

    kind: int
    result_id: int
    game_type: str
    at: datetime
    fingerprint: str
    placing: Placing = None
    # What the game's hands added to its players' figures (``GameFigures.stored``); None for a match.
    figures: dict[str, Any] | None = None

    @property
    def key(self) -> ResultKey:
        return (self.kind, self.result_id)

    @property
    def order(self) -> Order:
        return (self.at, self.kind, self.result_id)

    def rated(self) -> RatedResult | None:
        """The result as the ratings learn it (None if it is not rated on its own)."""
        if not self.placing:
            return None
        return RatedResult(
            game_type=self.game_type, teams=tuple(tuple(team) for team in self.placing["teams"]),
            places=tuple(self.placing["places"]), played_at=self.at, order=self.order,
            game_id=self.result_id if self.kind == GAME else None,
            match_id=self.result_id if self.kind == MATCH else None)


def placing_of(result: RatedResult) -> dict[str, list]:
    return {"teams": [list(team) for team in result.teams], "places": list(result.places)}


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

    def prints(self, facts: LeagueFacts, figures: GameFigures | None = None) -> list[ResultPrint]:
        """Each result's print; ``facts``: these rows' facts (``facts_of``), which give the placings; ``figures``:
        what the games' hands add to the figures (``figures_of``), if read."""
        placings = {(GAME if result.game_id is not None else MATCH, result.game_id or result.match_id):
                    placing_of(result) for result in rated_results(facts.games, facts.matches)}
        parts = figures.counts if figures is not None else {}
        return [ResultPrint(GAME, order[2], row[GAME_TYPE_AT], order[0],
                            game_print(row[index] for index in GAME_PRINT_AT), placings.get((GAME, order[2])),
                            figures.stored(order[2]) if figures is not None and order[2] in parts else None)
                for order, row in self.games] + [
            ResultPrint(MATCH, order[2], row[1], order[0], match_print(row), placings.get((MATCH, order[2])))
            for order, row in self.matches]

    def only(self, keys: Collection[ResultKey]) -> FinishedRows:
        """The rows of these results only."""
        return FinishedRows(games=[item for item in self.games if (GAME, item[0][2]) in keys],
                            matches=[item for item in self.matches if (MATCH, item[0][2]) in keys])

    def by_key(self) -> dict[ResultKey, tuple[Order, tuple]]:
        return {**{(GAME, item[0][2]): item for item in self.games},
                **{(MATCH, item[0][2]): item for item in self.matches}}


def games_of(scope: Scope) -> QuerySet:
    # A provisional game (hands not yet confirmed by the other side, its window not passed) is not counted yet.
    return (Game.objects.filter(league_id=scope.league_id, status=Game.Status.FINISHED, provisional=False).order_by()
            .annotate(at=Coalesce("finished_at", "started_at"), updated=Cast("updated_at", CharField()))
            .filter(scope.within("at")))


def seated(players: Collection[int]) -> Q:
    """Games in which any of ``players`` sat."""
    players = list(players)
    return Q(north_id__in=players) | Q(east_id__in=players) | Q(south_id__in=players) | Q(west_id__in=players)


def counted_in(scope: Scope, kind: int) -> Exists:
    """Results (games or matches: ``kind``) the scope's stored rows count (a subquery on each row's id)."""
    return Exists(CountedResult.objects.filter(**scope.rows, kind=kind, result_id=OuterRef("pk")))


def finished_rows(scope: Scope, *, game_type: str | None = None, players: Collection[int] | None = None,
                  keys: Collection[ResultKey] | None = None, counted: bool = False) -> FinishedRows:
    """The scope's finished games and matches: only those of ``game_type``, in which any of ``players`` played,
    or among ``keys``, if given; with ``counted``, only those the scope's stored rows count. Two queries."""
    players = set(players) if players is not None else None
    games = games_of(scope)
    # A match with a provisional game is provisional too: not counted until that game is.
    matches = (Match.objects.filter(league_id=scope.league_id, status=Match.Status.FINISHED).order_by()
               .exclude(Exists(Game.objects.filter(match_id=OuterRef("pk"), provisional=True))))
    if scope.season_id is not None:
        matches = matches.annotate(at=Coalesce("finished_at", "started_at")).filter(scope.within("at"))
    if game_type is not None:
        games, matches = games.filter(game_type=game_type), matches.filter(game_type=game_type)
    if players is not None:
        games = games.filter(seated(players))
    if keys is not None:
        games = games.filter(pk__in=[result_id for kind, result_id in keys if kind == GAME])
        matches = matches.filter(pk__in=[result_id for kind, result_id in keys if kind == MATCH])
    if counted:
        games, matches = games.filter(counted_in(scope, GAME)), matches.filter(counted_in(scope, MATCH))
    game_rows = [
        ((row[GAME_FINISHED_AT] or row[GAME_STARTED_AT], GAME, row[0]), row)
        for row in games.values_list(*GAME_FIELDS).iterator(chunk_size=BATCH)
    ]
    no_matches = keys is not None and not any(kind == MATCH for kind, _ in keys)
    match_rows = [] if no_matches else [
        ((row[MATCH_FINISHED_AT] or row[MATCH_STARTED_AT], MATCH, row[0]), row)
        for row in matches.values_list(*MATCH_FIELDS)
        if players is None or not players.isdisjoint(int(player) for player in row[4] or ())]
    return FinishedRows(games=game_rows, matches=match_rows)


def counted_prints(scope: Scope, keys: Collection[ResultKey]) -> dict[ResultKey, ResultPrint]:
    """These results as the scope's stored rows count them (those they count), with the fingerprints and
    placings they had then. One query per kind."""
    prints = {}
    for kind in (GAME, MATCH):
        ids = [result_id for found, result_id in keys if found == kind]
        for start in range(0, len(ids), BATCH):  # none at all for a kind not asked for
            rows = CountedResult.objects.filter(**scope.rows, kind=kind, result_id__in=ids[start:start + BATCH])
            for result_id, game_type, at, fingerprint, placing, figures in rows.values_list(
                    "result_id", "game_type", "finished_at", "fingerprint", "placing", "figures"):
                prints[(kind, result_id)] = ResultPrint(kind, result_id, game_type, at, fingerprint, placing, figures)
    return prints


def counted_since(scope: Scope, game_type: str, start: Order) -> list[ResultPrint]:
    """The results of ``game_type`` the scope's stored rows count, from ``start`` on, in game order. One query."""
    rows = CountedResult.objects.filter(**scope.rows, game_type=game_type, finished_at__gte=start[0]).values_list(
        "kind", "result_id", "game_type", "finished_at", "fingerprint", "placing")
    found = [ResultPrint(*row) for row in rows.iterator(chunk_size=BATCH)]
    return sorted((result for result in found if result.order >= start), key=lambda result: result.order)


def last_counted(scope: Scope) -> Order | None:
    """The last result the scope's stored rows count, in game order. One query."""
    row = (CountedResult.objects.filter(**scope.rows).order_by("-finished_at", "-kind", "-result_id")
           .values_list("finished_at", "kind", "result_id").first())
    return (row[0], row[1], row[2]) if row else None


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


def hand_rows(scope: Scope, game_ids: Collection[int] | None = None) -> Iterator[tuple[int, str, str]]:
    """(game id, record, details) of every hand of the scope's finished games (or of these games), the two JSON
    documents as the database writes them out (text); the record ``{}`` where the game's figures do not read it
    (``Ruleset.figures_read_record``).
    """
    hands = Hand.objects.filter(game__league_id=scope.league_id, game__status=Game.Status.FINISHED,
                                game__provisional=False)
    if game_ids is not None:
        hands = hands.filter(game_id__in=list(game_ids))
    elif scope.season_id is not None:
        hands = hands.annotate(game_at=Coalesce("game__finished_at", "game__started_at")).filter(
            scope.within("game_at"))
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


# What one hand adds to the figures of its game's players: (seat index in SEATS, ((figure's place in its game type's
# ``figure_counts``, count), ...)) for each seat it adds to.
Contribution = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
SEAT_INDEX = {seat: index for index, seat in enumerate(SEATS)}
Figures = dict[tuple[str, int], dict[str, int]]


@cache
def figure_names(game_type: str) -> tuple[str, ...]:
    """The figures a game type counts, in its own order (``Ruleset.figure_counts``)."""
    return tuple(ruleset_class(game_type).figure_counts)


@cache
def figure_places(game_type: str) -> dict[str, int]:
    return {name: place for place, name in enumerate(figure_names(game_type))}


def contribution(ruleset: Ruleset, record_text: str, details_text: str) -> Contribution:
    figures = ruleset.figures(orjson.loads(record_text), orjson.loads(details_text))
    places = figure_places(ruleset.game_type)
    return tuple((SEAT_INDEX[seat], tuple((places[name], count) for name, count in counts.items() if name in places))
                 for seat, counts in figures.items() if counts)


@dataclass
class GameFigures:
    """What each game's hands add to its four players' figures: per game its hands and, per seat, one count per
    figure of its game type (in ``figure_names`` order). A game's part is added to its players' figures when it is
    counted, kept with it (``CountedResult.figures``), and taken away again if it changes or goes."""

    game_types: dict[int, str] = field(default_factory=dict)
    counts: dict[int, list[int]] = field(default_factory=dict)  # game id -> [hands, *N, *E, *S, *W]

    def stored(self, game_id: int) -> dict[str, Any]:
        """The game's part as kept with it: ``{"hands": 14, "N": {"bids": 14, ...}, ...}`` (counts that are 0 left
        out)."""
        counts, names = self.counts[game_id], figure_names(self.game_types[game_id])
        out: dict[str, Any] = {"hands": counts[0]}
        for seat, index in SEAT_INDEX.items():
            start = 1 + index * len(names)
            out[seat] = {name: count for name, count in zip(names, counts[start:start + len(names)], strict=True)
                         if count}
        return out

    def players(self, seats: dict[int, dict[str, int]]) -> Figures:
        """Each player's figures, summed over these games (every figure the game type counts, and ``hands``)."""
        return player_figures((self.game_types[game_id], seats[game_id], counts, 1)
                              for game_id, counts in self.counts.items())


def vector_of(game_type: str, stored: dict[str, Any]) -> list[int]:
    """A game's part as :meth:`GameFigures.stored` keeps it, back as counts."""
    names = figure_names(game_type)
    return [stored.get("hands", 0), *(stored.get(seat, {}).get(name, 0) for seat in SEATS for name in names)]


def player_figures(parts: Iterable[tuple[str, dict[str, int], list[int], int]]) -> Figures:
    """Games' parts (game type, seating, counts, +1 or -1 to take them away) added up per player."""
    sums: dict[tuple[str, int], list[int]] = {}
    for game_type, seating, counts, sign in parts:
        width = len(figure_names(game_type))
        for seat, index in SEAT_INDEX.items():
            key = (game_type, seating[seat])
            total = sums.get(key)
            if total is None:
                total = sums[key] = [0] * (width + 1)
            total[0] += sign * counts[0]
            start = 1 + index * width
            for place in range(width):
                total[place + 1] += sign * counts[start + place]
    return {key: {"hands": total[0], **dict(zip(figure_names(key[0]), total[1:], strict=True))}
            for key, total in sorted(sums.items())}


def figures_of(scope: Scope, facts: LeagueFacts, only_these_games: bool = False) -> tuple[GameFigures, int]:
    """What the hands of the games in ``facts`` add to their players' figures, game by game (and the number of
    hands). ``only_these_games``: read just those games' hands (a few) rather than the scope's."""
    out = GameFigures()
    if only_these_games and not facts.rulesets:
        return out, 0
    rows = hand_rows(scope, facts.rulesets if only_these_games else None)
    # A league's hands say the same few thousand things over and over (the same bids made, the same bags):
    # what a hand adds is worked out once per ruleset and pair of documents, from their text, and the text
    # of the others is not decoded at all.
    known: dict[tuple[Ruleset, str, str], Contribution] = {}
    rulesets, counts_of, game_types = facts.rulesets, out.counts, out.game_types
    hands = 0
    for game_id, record_text, details_text in rows:
        ruleset = rulesets.get(game_id)
        if ruleset is None:  # not among the results read (it finished, or changed, after they were)
            continue
        counts = counts_of.get(game_id)
        if counts is None:
            game_types[game_id] = ruleset.game_type
            counts = counts_of[game_id] = [0] * (1 + len(SEATS) * len(figure_names(ruleset.game_type)))
        counts[0] += 1
        hands += 1
        key = (ruleset, record_text, details_text)
        adds = known.get(key)
        if adds is None:
            adds = known[key] = contribution(ruleset, record_text, details_text)
        width = (len(counts) - 1) // len(SEATS)
        for seat, figures in adds:
            start = 1 + seat * width
            for place, value in figures:
                counts[start + place] += value
    return out, hands

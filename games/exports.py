"""Tables a spreadsheet user can take away as CSV: a league's standings, its games, and a game's hands.

The pages and the API (``Accept: text/csv`` or ``?format=csv``) write the same tables. Headers are words,
not field names; times are in the site's time zone (named in the header) as ``2026-03-05 19:30``, which
every spreadsheet reads as a date; numbers are plain numbers. The file is UTF-8 with a byte-order mark,
so that Excel shows accented names right. A text cell that a spreadsheet would take for a formula (it
starts with ``=``, ``+``, ``-`` or ``@``) gets a leading apostrophe, so a player named ``=HYPERLINK(...)``
stays text: in the data cells and in the header cells alike (a hands table names each side's columns after
its players, ``Ann & Cat points``). An empty league gives the header line alone.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.text import slugify

from games.forms import hand_form_class
from games.forms.base import seat_names, side_names
from games.models import Game, Hand, League, Season, display_name
from games.nights import NightView
from games.rules import ruleset_class
from games.standings.selectors import league_standings
from games.summary import game_summary

# What a spreadsheet would run as a formula at the start of a cell.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


# Rows written at a time when a table is sent as it is read.
ROWS_AT_A_TIME = 500


@dataclass(frozen=True)
class Table:
    headers: Sequence[str]
    rows: Iterable[Sequence[Any]]  # read once: a long table's rows come as they are read (``csv_chunks``)
    filename: str  # what a download is saved as


def cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_chunks(table: Table) -> Iterator[str]:
    """The table as CSV text, piece by piece: the byte-order mark and the header at once, then the rows a few
    hundred at a time, each piece written as soon as its rows are read (a download that starts at once, in the
    memory of a few hundred rows)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([cell(header) for header in table.headers])  # a side's headers carry player names
    yield out.getvalue()  # at once: the first byte does not wait for the rows
    out.seek(0)
    out.truncate()
    written = 0
    for row in table.rows:
        writer.writerow([cell(value) for value in row])
        written += 1
        if written % ROWS_AT_A_TIME == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def csv_text(table: Table) -> str:
    return "".join(csv_chunks(table))


def when(label: str) -> str:
    """A time column's header, naming the time zone: ``Started (UTC)``."""
    return f"{label} ({settings.TIME_ZONE})"


# --- standings -------------------------------------------------------------------------------------

PLAYER_HEADERS = ["Game", "Position", "Player", "Played", "Won", "Lost", "Win rate %", "Points for",
                  "Points against", "Average margin", "Streak"]
MATCH_HEADERS = ["Skill", "Skill rank", "Matches played", "Matches won", "Match points"]
PARTNER_HEADERS = ["Game", "Position", "Partners", "Played", "Won", "Lost", "Win rate %", "Points for",
                   "Points against", "Average margin", "Streak"]


def line_figures(entry: dict[str, Any]) -> list[Any]:
    return [entry["played"], entry["won"], entry["lost"], round(100 * entry["win_rate"], 1), entry["points_for"],
            entry["points_against"], entry["average_margin"], entry["streak"]]


def standings_table(*, league: League, game_type: str | None = None, partnerships: bool = False,
                    season: Season | None = None) -> Table:
    """The league's standings (all time, or ``season``'s), one line per player (or per partnership), game type
    after game type, each in the order of the league page (games won, then win rate, then average margin). Two
    queries."""
    data = league_standings(league=league, game_type=game_type, season=season)
    rows: list[list[Any]] = []
    for table in data["game_types"]:
        if partnerships:
            rows += [[table["name"], position, " & ".join(person["name"] for person in entry["players"]),
                      *line_figures(entry), entry["last_played"]]
                     for position, entry in enumerate(table["partnerships"], start=1)]
            continue
        for position, entry in enumerate(table["players"], start=1):
            rating, matches = entry["rating"] or {}, entry["matches"] or {}
            rows.append([table["name"], position, entry["player"]["name"], *line_figures(entry),
                         entry["last_played"], rating.get("ordinal"), rating.get("rank"), matches.get("played"),
                         matches.get("won"), matches.get("points")])
    headers = [*(PARTNER_HEADERS if partnerships else PLAYER_HEADERS), when("Last played")]
    if not partnerships:
        headers += MATCH_HEADERS
    what = "partnerships" if partnerships else "standings"
    during = f"-{slugify(season.name)}" if season is not None else ""
    return Table(headers=headers, rows=rows,
                 filename=f"{league.slug}-{what}{during}{f'-{game_type}' if game_type else ''}.csv")


# --- games -----------------------------------------------------------------------------------------


def games_table(games: Iterable[Game], *, filename: str, link: Callable[[Game], str] | None = None) -> Table:
    """One line per game: when, what, who sat where, each side's points and who won. ``games`` must come with
    their league and seats (``select_related``): no query is made here but, for a queryset, the one that finds
    how many sides its games have, and the reading of its games a few hundred at a time as the rows are
    written (``csv_chunks``)."""
    if isinstance(games, QuerySet):
        most_sides = max((len(ruleset_class(game_type)(options or {}, rules_version=rules_version).sides)
                          for game_type, options, rules_version in games.order_by().values_list(
                              "game_type", "options", "rules_version").distinct()), default=2)
        games = games.iterator(chunk_size=ROWS_AT_A_TIME)
    else:
        games = list(games)
        most_sides = max((len(game.ruleset.sides) for game in games), default=2)
    headers = ["Game", when("Started"), when("Finished"), "Game type", "League", "Status",
               *SEAT_WORDS.values(), *(f"Side {n}{suffix}" for n in range(1, most_sides + 1)
                                       for suffix in ("", " points")),
               "Winner", "Hands", "Match", "Match game", *(["Page"] if link else [])]
    return Table(headers=headers, rows=game_rows(games, most_sides, link), filename=filename)


def game_rows(games: Iterable[Game], most_sides: int, link: Callable[[Game], str] | None) -> Iterator[list[Any]]:
    for game in games:
        summary = game_summary(game)
        names = side_names(game)
        sides = [[names[side.key], side.total] for side in summary.sides]
        sides += [["", ""]] * (most_sides - len(sides))
        seats = seat_names(game)
        yield [
            game.pk, game.started_at, game.finished_at, game.game_type_name, game.league.name if game.league_id else "",
            game.get_status_display(), *(seats[seat] for seat in SEAT_WORDS),
            *(value for side in sides for value in side),
            names.get(summary.winner, "") if summary.winner else "", game.hand_count,
            game.match_id or "", game.match_game_number or "", *([link(game)] if link else []),
        ]


# --- hands -----------------------------------------------------------------------------------------


def hands_table(game: Game, hands: Iterable[Hand], *, corrected: Collection[int] = frozenset()) -> Table:
    """One line per hand: its number, dealer, what happened in the game's own words, each side's points and
    running total (and extras such as bags), who entered it and when. ``corrected``: numbers of hands
    corrected since. The game must come with its seats; hands with ``entered_by``."""
    ruleset = game.ruleset
    names = side_names(game)
    seats = seat_names(game)
    describe = hand_form_class(game.game_type).describe
    extras = list(ruleset.extras_shown)
    rows = []
    for hand in hands:
        rows.append([
            hand.number, seats[hand.dealer], describe(hand.record, hand.details or {}, seats),
            *(hand.delta.get(side, 0) for side in ruleset.sides),
            *(hand.totals.get(side, 0) for side in ruleset.sides),
            *((hand.extras or {}).get(extra.name, {}).get(side, 0) for extra in extras for side in ruleset.sides),
            hand.record.get("note", ""), display_name(hand.entered_by) if hand.entered_by_id else "",
            hand.entered_at, hand.number in corrected, json.dumps(hand.record, separators=(",", ":")),
        ])
    headers = [
        "Hand", "Dealer", "What happened",
        *(f"{names[side]} points" for side in ruleset.sides),
        *(f"{names[side]} total" for side in ruleset.sides),
        *(f"{names[side]} {extra.many}" for extra in extras for side in ruleset.sides),
        "Note", "Entered by", when("Entered"), "Corrected", "Record (JSON)",
    ]
    return Table(headers=headers, rows=rows, filename=f"game-{game.pk}-hands.csv")


# --- a club night ----------------------------------------------------------------------------------


RESULT_WORDS = {"won": "won", "lost": "lost", "drawn": "drawn", "playing": "playing", "abandoned": "abandoned",
                "sat_out": "sat out", None: ""}


def night_results_table(view: NightView) -> Table:
    """A club night's results (``games.nights.night_view``): one line per player (a pairs night: per pair) in the
    order of the night's standings, with their place, games won, drawn and lost, points and rounds sat out, then
    each round's result, table and points. No query beyond what ``view`` has read."""
    rounds = [round_.number for round_ in view.rounds]
    pairs = view.pairs is not None
    rows = []
    for line in view.standings:
        entries = {entry.round: entry for entry in line.rounds}
        per_round: list[Any] = []
        for number in rounds:
            entry = entries.get(number)
            per_round += ([RESULT_WORDS.get(entry.result, entry.result), entry.table, entry.points]
                          if entry is not None else ["", None, None])
        rows.append([line.place, *([line.key] if pairs else []), view.names(line.who), line.played, line.won,
                     line.drawn, line.lost, line.points, line.sat_out, *per_round])
    headers = ["Place", *(["Pair", "Players"] if pairs else ["Player"]), "Played", "Won", "Drawn", "Lost", "Points",
               "Sat out", *(f"Round {number}{suffix}" for number in rounds for suffix in ("", " table", " points"))]
    night = view.night
    return Table(headers=headers, rows=rows,
                 filename=f"{night.league.slug}-{slugify(night.name) or 'club-night'}-{night.pk}-results.csv")

"""A club night in the room: the board on the TV, the table cards and the result sheet (docs/club-night.md,
"The room board and printing").

- ``night_board`` (``nights/<id>/board/``): every table of the current round as it is played, and the night's
  standings, in type to read across the room. Like a game's live board it asks ``board/live/`` (an HTML
  fragment) every couple of seconds whether anything changed; the fragment's ETag is the night's version
  (``games.nights.night_version``: the night's row, its games', any player's name; and the minute, while a
  round with a time limit runs, since its clock is on the board), so an unchanged night costs one statement
  (``versions.night_with_version``) and a 304. Each version is rendered once and kept in the cache under its ETag, so ten boards cost one
  render. Whoever may see the league may watch it; it shows neither the night's code nor anything a viewer
  could do.
- ``night_cards`` (``nights/<id>/cards/``, the organiser's): a card per table to print, with the night's
  check-in code and, while a round is played, the code of the table's game.
- ``night_results`` (``nights/<id>/results/``): the standings and every round's tables, to print.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_GET

from games import services, versions
from games.errors import NotAllowed, NotFound
from games.kept import cached, keep
from games.models import Game, Night, NightTable
from games.nights import NightView, RoundView, TableView, night_for, night_version, night_view
from games.rules.explaining import number

from .follow import POLL_SECONDS
from .live import BOARD_SECONDS
from .nights import RESULT_WORDS, wins_words
from .qr import qr_inline
from .table_code import join_link

# A player's round in the standings, in a letter or a word and in words: the board's "W W D", "out" for a round
# sat out (as the night page writes them), "–" for a round before they came.
ROUND_MARKS: dict[str | None, tuple[str, str]] = {result: words for result, words in RESULT_WORDS.items()}
ROUND_MARKS[None] = ("–", "not there")
# How often the board of a round with a time limit is drawn again, its rows unchanged: the minutes left, and the
# moment time is up, show within this and a poll.
CLOCK_SECONDS = 15
# The most standings lines the board shows in one column.
ONE_COLUMN = 16
# How many rounds' marks a standings line holds, in one column and in two (the latest rounds').
MARKS_IN_ONE_COLUMN, MARKS_IN_TWO_COLUMNS = 8, 3
# How many table cards the organiser may print at once (a night's tables are at most a few dozen).
MOST_CARDS = 40


def night_or_refusal(request, night_id: int, *, need: Literal["view", "run"] = "view") -> Night:
    """The night, as ``night_for`` finds it for the pages' user; its refusals as the pages show them."""
    try:
        return night_for(request.user, night_id, need=need)
    except NotFound:
        raise Http404("No such club night") from None
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None


def night_page_url(night: Night) -> str:
    """Where a link to the night goes: its own page (the director's, the players' cards), else its board."""
    try:
        return reverse("night", args=[night.pk])
    except NoReverseMatch:
        return reverse("night-board", args=[night.pk])


def check_in_url(request, night: Night) -> str:
    """The night's check-in link with its code, as its QR carries it (the one place the address is built)."""
    try:
        path = reverse("night-check-in", args=[night.pk])
    except NoReverseMatch:
        path = f"/nights/{night.pk}/check-in/"
    return request.build_absolute_uri(f"{path}?code={night.code}")


def results_csv_url(night: Night) -> str | None:
    """The night's results as CSV, where the API serves them; None where it does not."""
    try:
        return reverse("api-night-results", args=[night.pk])
    except NoReverseMatch:
        return None


# --- the board ------------------------------------------------------------------------------------------------


def board_etag(night: Night, now: datetime) -> str:
    """The board's ETag: the night's version, and the quarter-minute while a round with a time limit is played
    (the minutes left are on the board, and a table's state turns at the time limit with no row changing)."""
    clock = (int(now.timestamp() // CLOCK_SECONDS)
             if night.round_end == Night.RoundEnd.TIME and night.status == Night.Status.PLAYING else "")
    return versions.etag("night-board", *night_version(night), clock)


def board_version(request, night_id: int) -> str | None:
    """The board fragment's ETag (from the night's version alone: one statement), the night's version kept on the
    request for the answer; None for a night not to be seen (the view then says so)."""
    night = versions.night_with_version(request.user, night_id)
    request.night = night
    if night is None:
        return None
    request.board_etag = board_etag(night, timezone.now())
    return request.board_etag


def side_lines(table: TableView) -> list[dict[str, Any]]:
    """Each side of a table's game: its players by seat, its total (a minus sign as the pages write it), and
    whether it won."""
    game = table.game
    ruleset = game.ruleset
    seats = game.seats
    return [{"key": side,
             "seats": [(seat, seats[seat].name) for seat in ruleset.seats_of(side)],
             "total": number(int(game.totals.get(side, 0))),
             "winner": game.status == Game.Status.FINISHED and game.winner == side}
            for side in ruleset.sides]


def table_state(night: Night, table: TableView, now: datetime) -> str:
    """Where a table is in its round, in words: "3 of 8 hands played", "12 min left", "done: NS won"..."""
    game = table.game
    played = f"{game.hand_count} hand{'s' if game.hand_count != 1 else ''} played"
    if game.status == Game.Status.FINISHED:
        return f"Done: {game.winner} won" if game.winner else "Done: a draw"
    if game.status == Game.Status.ABANDONED:
        return "Abandoned"
    if game.time_up_at is not None:
        if game.time_is_up(now):
            return f"Time is up: hand {game.hand_count + 1} is the last"
        if table.last_hand:
            return f"Time is up: hand {table.last_hand} is the last"
        minutes = max(1, int((game.time_up_at - now).total_seconds() // 60) + 1)
        return f"{played} · {minutes} min left"
    if table.last_hand:
        return f"{game.hand_count} of {table.last_hand} hand{'s' if table.last_hand != 1 else ''} played"
    return f"{played} · to {game.ruleset.target}"


def table_lines(night: Night, round_: RoundView, now: datetime) -> list[dict[str, Any]]:
    return [{"number": table.number, "game": table.game, "done": not table.playing,
             "state": table_state(night, table, now), "sides": side_lines(table)}
            for table in round_.tables]


def standing_lines(view: NightView) -> list[dict[str, Any]]:
    """The night's standings as the board and the sheet show them: place, who, each round's mark, the totals."""
    pairs = view.pairs is not None
    return [{"place": line.place, "key": line.key,
             "name": (f"Pair {line.key}: " if pairs else "") + view.names(line.who),
             "marks": [(*ROUND_MARKS[entry.result], entry)
                       for entry in line.rounds],
             "won": line.won, "drawn": line.drawn, "lost": line.lost, "points": number(line.points),
             "wins": wins_words(line)}
            for line in view.standings]


def room(view: NightView, now: datetime) -> dict[str, Any]:
    """What the board shows: the current round's tables, who sits it out, and the night's standings."""
    night = view.night
    current = view.current
    lines = standing_lines(view)
    half = (len(lines) + 1) // 2
    two_columns = len(lines) > ONE_COLUMN
    shown = MARKS_IN_TWO_COLUMNS if two_columns else MARKS_IN_ONE_COLUMN
    tables = table_lines(night, current, now) if current is not None else []
    time_up_at = current.round.time_up_at if current is not None else None
    return {
        "night": night, "view": view, "current": current,
        "tables": tables,
        # As many columns as keep every table on the screen, each as large as that allows.
        "columns": 1 if len(tables) <= 1 else 2 if len(tables) <= 4 else 3 if len(tables) <= 9 else 4,
        "sitting_out": ", ".join(player.name for player in current.sitting_out) if current is not None else "",
        "standings": lines,
        # More lines than the screen holds in one column: two, side by side (a night of ten tables fits).
        "standing_columns": [lines[:half], lines[half:]] if two_columns else [lines],
        # The latest rounds' marks, as many as the line holds (the result sheet has them all).
        "marks_from": max(0, len(view.rounds) - shown), "marks_shown": f"-{shown}:",
        "time_up_at": time_up_at if time_up_at is not None and current is not None and current.playing else None,
    }


def fragment_key(night_id: int, etag: str) -> str:
    return f"night-board:{night_id}:{etag}"


def board_fragment(night: Night, etag: str, now: datetime) -> str:
    """The board's changing part, rendered once per version (every board and poll of that version shares it)."""
    key = fragment_key(night.pk, etag)
    html = cached(key)
    if html is None:
        html = render_to_string("nights/_board.html", room(night_view(night), now))
        keep(key, html, BOARD_SECONDS)
    return html


@require_GET
@cache_control(private=True, no_cache=True)
def night_board(request, night_id: int):
    night = night_or_refusal(request, night_id)
    now = timezone.now()
    etag = board_etag(night, now)
    return render(request, "nights/board.html", {
        "night": night, "title": f"{night.name}: the room", "board": board_fragment(night, etag, now),
        "poll_seconds": POLL_SECONDS, "version": etag, "night_url": night_page_url(night),
    })


@require_GET
@condition(etag_func=board_version)
def night_board_live(request, night_id: int):
    if request.night is None:
        raise Http404("No such club night")
    etag = request.board_etag
    html = cached(fragment_key(night_id, etag))
    if html is None:  # drawn from the night read whole, under the ETag of what was read
        night, now = night_or_refusal(request, night_id), timezone.now()
        etag = board_etag(night, now)
        html = board_fragment(night, etag, now)
    response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


# --- printing -------------------------------------------------------------------------------------------------


def cards_asked(request, view: NightView) -> tuple[int, str]:
    """How many table cards to print, and what is wrong with the number asked for (``?tables=``): the current
    round's tables while one is played, else one per four players checked in."""
    current = view.current
    default = (len(current.tables) if current is not None and current.playing
               else max(1, len(view.present) // 4))
    asked = request.GET.get("tables", "").strip()
    if not asked:
        return default, ""
    if not asked.isdigit() or not 1 <= int(asked) <= MOST_CARDS:
        return default, f"Tables: give a whole number from 1 to {MOST_CARDS}."
    return int(asked), ""


@require_GET
@cache_control(private=True, no_store=True)
def night_cards(request, night_id: int):
    night = night_or_refusal(request, night_id, need="run")
    view = night_view(night)
    count, error = cards_asked(request, view)
    current = view.current
    playing = {table.number: table for table in current.tables if table.playing} if current is not None else {}
    check_in = check_in_url(request, night)
    check_in_qr = qr_inline(check_in, title=f"Check in to {night.name}")
    cards = []
    for number_ in range(1, max(count, max(playing, default=0)) + 1):
        table = playing.get(number_)
        link = (join_link(request, table.game, services.table_token_issue(game=table.game, by=request.user))
                if table is not None else None)
        cards.append({"number": number_, "table": table, "link": link,
                      "qr": qr_inline(link, title=f"Table {number_}'s game") if link else None})
    response = render(request, "nights/cards.html", {
        "night": night, "view": view, "title": f"{night.name}: table cards", "cards": cards,
        "check_in": check_in, "check_in_qr": check_in_qr, "count": count, "error": error,
        "most": MOST_CARDS, "night_url": night_page_url(night),
    }, status=400 if error else 200)
    response["Referrer-Policy"] = "no-referrer"
    return response


def round_results(view: NightView) -> list[dict[str, Any]]:
    """Every round's tables as the sheet prints them: who sat where, the totals, who won."""
    out = []
    for round_ in view.rounds:
        tables = []
        for table in round_.tables:
            game = table.game
            result = ("won by " + " & ".join(name for _, name in next(
                side["seats"] for side in side_lines(table) if side["key"] == game.winner))
                      if game.status == Game.Status.FINISHED and game.winner else
                      "a draw" if game.status == Game.Status.FINISHED else
                      "abandoned" if game.status == Game.Status.ABANDONED else "still being played")
            tables.append({"number": table.number, "game": game, "sides": side_lines(table), "result": result,
                           "hands": game.hand_count, "substitutions": table.substitutions})
        out.append({"number": round_.number, "tables": tables,
                    "sitting_out": ", ".join(player.name for player in round_.sitting_out)})
    return out


@require_GET
@cache_control(private=True, no_cache=True)
def night_results(request, night_id: int):
    night = night_or_refusal(request, night_id)
    view = night_view(night)
    return render(request, "nights/results.html", {
        "night": night, "view": view, "title": f"{night.name}: results",
        "standings": standing_lines(view), "rounds": round_results(view),
        "round_numbers": [round_.number for round_ in view.rounds], "night_url": night_page_url(night),
        "csv_url": results_csv_url(night),
        "marks": list(ROUND_MARKS.values()),
    })


# --- the night on other pages ---------------------------------------------------------------------------------


def night_place(game: Game) -> dict[str, Any] | None:
    """Where a game sits in a club night, for its table page: "Club night Thursday · round 2 · table 3", the
    link to the night, and when a round with a time limit is up. None for a game of no night. Read with the
    game when its lookup joined it (the table page's), else one query."""
    if not game.league_id:
        return None
    if Game.night_table.is_cached(game):
        table = getattr(game, "night_table", None)
    else:
        table = NightTable.objects.select_related("round__night").filter(game=game).first()
    if table is None:
        return None
    night = table.round.night
    return {"night": night, "round": table.round.number, "table": table.number, "url": night_page_url(night),
            "board": reverse("night-board", args=[night.pk]), "time_up_at": game.time_up_at,
            "time_is_up": game.time_is_up(timezone.now()), "last_hand": game.options.get("last_hand")}


def night_rows(nights: list[Night]) -> list[dict[str, Any]]:
    """Nights as the league and home pages list them: each with its link, its board's, its result sheet's and its
    table cards'."""
    return [{"night": night, "url": night_page_url(night), "board": reverse("night-board", args=[night.pk]),
             "results": reverse("night-results", args=[night.pk]), "cards": reverse("night-cards", args=[night.pk])}
            for night in nights]

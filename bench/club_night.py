"""A club night on one app server: twenty tables of a night run through the services, their phones and the room's
board following the games while the scorekeepers record hands. What the watching costs, and what it does to
recording.

Run by ``bench/run.py`` (``make bench``) against the same gunicorn as the recording benchmark (production
settings, PostgreSQL). The night is made as an organiser makes one (``games/services/nights.py``): started in a
private league (Spades, an individual movement, a round of ``ROUND_HANDS`` hands), ``4 * tables`` players
checked in, and its first round started, which seats the tables and starts their games. Each table's game is
followed by four phones asking every two seconds whether it changed, with the ETag of what they show, as the pages
do (``static/live/watch.js``):

- the scorekeeper's table page asks the spectator board (``live/board/``), signed in as the organiser;
- the player seated North follows the game (``follow/``), signed in to their own account, linked to them;
- two phones with only the table's code (``follow/``, the table pass cookie), sitting East and West;

and the room's TV shows the night's board (``nights/<id>/board/``, asking what its page asks), opened by the
organiser; where the night's board does not exist, the TV shows table 1's spectator board, opened with its code.

Phases, in one run: the watchers alone while nothing changes (every answer a 304), the watchers alone asking
without an ETag (every answer drawn: what a 200 costs); then recording alone and recording with the watchers in
alternating turns, so that whatever else the machine does weighs on both, twice:

- every poll a change: each table's scorekeeper records a hand every ``pace`` seconds (one a second, some two
  hundred times a real table's pace: the watchers' dearest case);
- a real night's pace: each table records a hand every ``hand_seconds`` (three minutes), so that nearly every
  poll is a 304, and beside the night ``PROBES`` scorekeepers record a hand every ``pace`` seconds each into games
  of the league nobody watches, so that recording's latency has enough hands to be measured.
"""

from __future__ import annotations

import http.client
import math
import os
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bench.recording import CpuMeter, Recorder
from loadtest.client import Api, percentile

TABLES = 20
POLL_SECONDS = 2.0
# A round of the night: as many hands as a night allows (games/services/nights.py's HANDS_RANGE), so that the
# tables are still playing at the end of the run; the bench checks its hands fit in it.
ROUND_HANDS = 50
WARM_UP_HANDS = 2
# At a real night's pace: a hand every three minutes a table; and the scorekeepers beside the night whose hands
# measure recording then.
HAND_SECONDS = 180.0
PROBES = 5
LIVE_URL = re.compile(r'data-live-url="([^"]+)"')


@dataclass
class Watcher:
    """One page asking whether what it shows changed, every ``POLL_SECONDS``."""

    name: str
    path: str
    cookie: str = ""
    etag: str = ""
    conditional: bool = True
    answers: list[tuple[int, float]] = field(default_factory=list)

    def ask(self, api: Api) -> None:
        headers = {"Accept": "text/html"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.conditional and self.etag:
            headers["If-None-Match"] = self.etag
        reply = api.request("GET", self.path, headers=headers)
        if reply.status == 200:
            self.etag = reply.headers.get("etag", self.etag)
        self.answers.append((reply.status, reply.seconds))


@dataclass
class ClubNight:
    """The night as the bench uses it: the organiser's API token, the tables' games, the games beside the night,
    the watchers, and the TV's page (the night's board, or a game's)."""

    night_id: int
    token: str
    games: list[int]
    probes: list[int]
    watchers: list[Watcher]
    board: Watcher
    board_page: str
    room_board: bool


def night(*, secret_key: str, tables: int = TABLES) -> ClubNight:
    """A night of ``tables`` tables in a private league, its first round started, with its watchers; and the
    games beside it. Made in the bench database (in-process); the sessions and table passes are signed with the
    app server's ``secret_key``."""
    from django.contrib.auth import get_user_model
    from django.http import HttpResponse
    from django.test import Client, override_settings
    from django.urls import NoReverseMatch, reverse
    from rest_framework.authtoken.models import Token

    from games.models import Game, NightTable
    from games.policy import TablePass
    from games.services import (
        game_start,
        invitation_accept,
        invitation_create,
        league_create,
        night_check_in,
        night_round_start,
        night_start,
        player_create,
        player_link,
    )
    from games.views.table_pass import cookie_name, keep_table_pass

    def pass_cookie(game_id: int, token: str, seat: str | None) -> str:
        """The Cookie header of a phone that scanned the game's code (and chose ``seat``)."""
        response = HttpResponse()
        keep_table_pass(response, TablePass(game_id=game_id, token=token, seat=seat))
        return f"{cookie_name(game_id)}={response.cookies[cookie_name(game_id)].value}"

    stamp = time.time_ns()
    users = get_user_model().objects
    owner = users.create_user(username=f"club-{stamp}", password="bench-password-x1")
    # A private league: every watcher gets in by what it holds (a session, a table pass), as at a club.
    league = league_create(name=f"Club night {stamp}", by=owner, is_public=False)
    out_of_reach = {"target": 1_000_000, "lose_at": None}  # each game goes on to the round's last hand
    the_night = night_start(league=league, by=owner, game_type="spades", options=out_of_reach,
                            movement="individual", round_end="hands", hands=ROUND_HANDS, rounds=3,
                            name=f"Bench club night {stamp}")
    people = {}
    for number in range(4 * tables):
        person = player_create(name=f"Player {number + 1}", by=owner, league=league)
        night_check_in(night=the_night, by=owner, player=person)
        people[person.pk] = person
    round_ = night_round_start(night=the_night, by=owner)
    seated = list(NightTable.objects.filter(round=round_).select_related("game").order_by("number"))
    if len(seated) != tables:
        raise RuntimeError(f"the round seated {len(seated)} tables, not {tables}")
    beside = [player_create(name=f"Beside the night {seat}", by=owner, league=league) for seat in "NESW"]
    probes = [game_start(game_type="spades", league=league, by=owner, options=out_of_reach,
                         seats={seat: person.pk for seat, person in zip("NESW", beside, strict=True)}).pk
              for _ in range(PROBES)]
    games, watchers = [], []
    with override_settings(SECRET_KEY=secret_key, ALLOWED_HOSTS=["*"]):
        keeper = Client()
        keeper.force_login(owner)
        keeper_cookie = f"sessionid={keeper.cookies['sessionid'].value}"
        for table in seated:
            game = table.game
            member = users.create_user(username=f"club-{stamp}-{table.number}", password="bench-password-x1")
            invitation_accept(token=invitation_create(league=league, role="member", by=owner, invitee=member).token,
                              by=member)
            player_link(league=league, player=people[game.seat_ids["N"]], user=member, by=owner)
            games.append(game.pk)
            player = Client()
            player.force_login(member)
            token = Game.objects.values_list("table_token", flat=True).get(pk=game.pk)
            watchers += [Watcher(f"table {table.number}: scorekeeper", f"/games/{game.pk}/live/board/",
                                 keeper_cookie),
                         Watcher(f"table {table.number}: player", f"/games/{game.pk}/follow/",
                                 f"sessionid={player.cookies['sessionid'].value}")]
            for seat in "EW":
                watchers.append(Watcher(f"table {table.number}: code, {seat}", f"/games/{game.pk}/follow/",
                                        pass_cookie(game.pk, token, seat)))
        try:
            page, room_board = reverse("night-board", args=[the_night.pk]), True
            board = Watcher("the room's TV: the night's board", page, keeper_cookie)
        except NoReverseMatch:  # a version of Scorekeeper without the night's board: a game's, as before
            page, room_board = f"/games/{games[0]}/live/board/", False
            board = Watcher("the room's TV: table 1's board", page,
                            pass_cookie(games[0], seated[0].game.table_token, None))
    return ClubNight(night_id=the_night.pk, token=Token.objects.get_or_create(user=owner)[0].key, games=games,
                     probes=probes, watchers=[*watchers, board], board=board, board_page=page, room_board=room_board)


def open_board(api: Api, board: Watcher) -> None:
    """The TV opens its page and from then on asks what the page asks (its ``data-live-url``), as the page's
    script does; a page that names none is asked itself."""
    connection = http.client.HTTPConnection(api.host, api.port, timeout=api.timeout)
    try:
        connection.request("GET", board.path, headers={"Accept": "text/html", "Cookie": board.cookie})
        response = connection.getresponse()
        status, page = response.status, response.read().decode(errors="replace")
    finally:
        connection.close()
    if status != 200:
        raise RuntimeError(f"the room's TV could not open {board.path}: {status}")
    board.path = asked_by(page, board.path)


def asked_by(page: str, path: str) -> str:
    """What the page at ``path`` asks whether it changed: its ``data-live-url``, else the page itself."""
    found = LIVE_URL.search(page)
    return found.group(1).replace("&amp;", "&") if found else path


def watched(api: Api, watchers: list[Watcher], work):
    """``work()``'s result, with every watcher asking meanwhile, each in a thread of its own, every two seconds
    (their turns spread over the two)."""
    stop = threading.Event()

    def loop(watcher: Watcher, offset: float) -> None:
        due = time.monotonic() + offset
        while not stop.wait(max(0.0, due - time.monotonic())):
            watcher.ask(api)
            due += POLL_SECONDS

    threads = [threading.Thread(target=loop, args=(watcher, POLL_SECONDS * n / len(watchers)), daemon=True)
               for n, watcher in enumerate(watchers)]
    for thread in threads:
        thread.start()
    try:
        return work()
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)


@dataclass
class Scorekeeper:
    """A scorekeeper recording a hand every ``every`` seconds of a phase's recording time, the next when ``due``
    (on that clock, which runs only while the phase records: its turns follow on from each other)."""

    recorder: Recorder
    every: float
    due: float


def record(keepers: list[Scorekeeper], *, clock: float, seconds: float) -> list[tuple[bool, float]]:
    """``seconds`` of recording from ``clock`` on: each scorekeeper records its hands as they fall due (on time,
    whatever the last one took)."""
    results: list[tuple[bool, float]] = []
    lock = threading.Lock()
    start = time.monotonic()
    end = start + seconds

    def loop(keeper: Scorekeeper) -> None:
        while (due := start + keeper.due - clock) < end:
            time.sleep(max(0.0, due - time.monotonic()))
            outcome = keeper.recorder.one()
            with lock:
                results.append(outcome)
            keeper.due += keeper.every

    threads = [threading.Thread(target=loop, args=(keeper,), daemon=True) for keeper in keepers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return results


def phase(meter: CpuMeter, work) -> tuple[Any, float, tuple[float, float, float]]:
    before = meter.snapshot()
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started, CpuMeter.spent(before, meter.snapshot())


def watchers_alone(api: Api, watchers: list[Watcher], meter: CpuMeter, seconds: float, *,
                   conditional: bool) -> dict[str, Any]:
    for watcher in watchers:
        watcher.conditional, watcher.answers = conditional, []
    _, elapsed, cpu = phase(meter, lambda: watched(api, watchers, lambda: time.sleep(seconds)))
    answers = [answer for watcher in watchers for answer in watcher.answers]
    return summary_of(answers, elapsed, cpu)


def summary_of(answers: list[tuple[int, float]], elapsed: float, cpu: tuple[float, float, float]) -> dict[str, Any]:
    polls = len(answers)
    latencies = [seconds for _, seconds in answers]
    return {
        "polls": polls, "per_second": polls / elapsed if elapsed else 0.0,
        "share_304": sum(status == 304 for status, _ in answers) / polls if polls else 0.0,
        "errors": sum(status not in (200, 304) for status, _ in answers),
        "p50_ms": percentile(latencies, 0.5) * 1000, "p99_ms": percentile(latencies, 0.99) * 1000,
        "cpu_web_ms": 1000 * cpu[0] / polls if polls else 0.0, "cpu_database_ms": 1000 * cpu[1] / polls if polls else 0.0,
        "cpu_clients_ms": 1000 * cpu[2] / polls if polls else 0.0,
        "seconds": elapsed,
    }


def alternating(api: Api, watchers: list[Watcher], meter: CpuMeter, keepers: list[Scorekeeper], *, seconds: float,
                rounds: int) -> dict[str, Any]:
    """Recording alone and recording with the watchers asking, in ``rounds`` alternating turns, ``seconds`` in all
    each way: the hands' latency each way, the CPU each way, and the watchers' answers meanwhile."""
    for watcher in watchers:
        watcher.ask(api)  # the ETags as they are now, after the hands before
    for watcher in watchers:
        watcher.conditional, watcher.answers = True, []
    turn, clock = seconds / rounds, 0.0
    hands: dict[str, list[tuple[bool, float]]] = {"alone": [], "watched": []}
    cpu = {"alone": [0.0, 0.0, 0.0], "watched": [0.0, 0.0, 0.0]}
    elapsed = {"alone": 0.0, "watched": 0.0}
    for _ in range(rounds):
        for way in ("alone", "watched"):
            start = clock

            def work(start: float = start) -> list[tuple[bool, float]]:
                return record(keepers, clock=start, seconds=turn)

            done, took, spent = phase(meter, work if way == "alone" else lambda: watched(api, watchers, work))
            hands[way] += done
            elapsed[way] += took
            cpu[way] = [total + more for total, more in zip(cpu[way], spent, strict=True)]
            clock += turn
    answers = [answer for watcher in watchers for answer in watcher.answers]
    polls = summary_of(answers, elapsed["watched"], (0.0, 0.0, 0.0))
    return {"alone": recording_summary(hands["alone"], elapsed["alone"], cpu["alone"]),
            "watched": recording_summary(hands["watched"], elapsed["watched"], cpu["watched"]),
            "polls": {key: polls[key] for key in ("polls", "per_second", "share_304", "errors", "p50_ms", "p99_ms")}}


def hands_a_table(*, seconds: float, real_seconds: float, pace: float, hand_seconds: float) -> int:
    """The most hands a table's game is asked to take in a run: it must fit in the night's round."""
    return (WARM_UP_HANDS + math.floor(2 * seconds / pace) + 1 + math.floor(2 * real_seconds / hand_seconds) + 1)


def run(base_url: str, *, meter: CpuMeter, secret_key: str, tables: int = TABLES, seconds: float = 20.0,
        real_seconds: float = 60.0, rounds: int = 4, pace: float = 1.0,
        hand_seconds: float = HAND_SECONDS, watch_url: str | None = None) -> dict[str, Any]:
    """The night's measurements: the watchers' cost per poll (304 and 200); recording's latency without and with
    them, every poll a change (``seconds`` each way) and at a real night's pace (``real_seconds`` each way), in
    ``rounds`` turns each way; and the CPU each way. The watchers ask ``watch_url`` (a server of their own) if
    given, else ``base_url``, where the scorekeepers record."""
    needed = hands_a_table(seconds=seconds, real_seconds=real_seconds, pace=pace, hand_seconds=hand_seconds)
    if needed > ROUND_HANDS:
        raise ValueError(f"a table would be asked for up to {needed} hands, and a round of the night has "
                         f"{ROUND_HANDS}: record for less time or at a slower pace")
    load_before, started = os.getloadavg(), time.perf_counter()
    club = night(secret_key=secret_key, tables=tables)
    api, scorekeepers = Api(watch_url or base_url), Api(base_url, token=club.token)
    tables_recording = [Recorder(scorekeepers, game, seed) for seed, game in enumerate(club.games)]
    beside = [Recorder(scorekeepers, game, len(club.games) + seed) for seed, game in enumerate(club.probes)]
    open_board(api, club.board)
    watchers = club.watchers
    for watcher in watchers:  # the pages, opened: each watcher knows the ETag of what it shows
        watcher.ask(api)
    opened = {watcher.name: watcher.answers[-1][0] for watcher in watchers}
    if set(opened.values()) != {200}:
        refused = sorted({f"{name}: {status}" for name, status in opened.items() if status != 200})
        raise RuntimeError(f"the watchers' pages did not open: {', '.join(refused[:5])}")
    everyone = tables_recording + beside
    warm_up = [Scorekeeper(recorder, 0.5, 0.5 * n / len(everyone)) for n, recorder in enumerate(everyone)]
    record(warm_up, clock=0.0, seconds=0.5 * WARM_UP_HANDS)  # warm every worker on the recording path
    print(f"  the night made in {time.perf_counter() - started:.0f} s: {tables} tables, {len(watchers)} watchers, "
          f"the TV asking {club.board.path}", flush=True)
    out: dict[str, Any] = {
        "tables": tables, "watchers": len(watchers), "pace": pace, "poll_seconds": POLL_SECONDS,
        "hand_seconds": hand_seconds, "probes": len(beside), "round_hands": ROUND_HANDS,
        "room_board": club.room_board, "board_page": club.board_page, "board_polled": club.board.path,
    }
    for watcher in watchers:
        watcher.ask(api)  # the ETags as they are now, after the warm-up's hands
    out["unchanged"] = watchers_alone(api, watchers, meter, min(20.0, seconds), conditional=True)
    out["drawn"] = watchers_alone(api, watchers, meter, min(10.0, seconds / 2), conditional=False)
    print("  recording alone and watched, every poll a change ...", flush=True)
    every_poll = alternating(api, watchers, meter, [
        Scorekeeper(recorder, pace, pace * n / len(tables_recording)) for n, recorder in enumerate(tables_recording)
    ], seconds=seconds, rounds=rounds)
    out["recording_alone"], out["recording_watched"] = every_poll["alone"], every_poll["watched"]
    out["watching_while_recording"] = every_poll["polls"]
    print("  recording alone and watched, at a real night's pace ...", flush=True)
    real_pace = alternating(api, watchers, meter, [
        *(Scorekeeper(recorder, hand_seconds, hand_seconds * n / len(tables_recording))
          for n, recorder in enumerate(tables_recording)),
        *(Scorekeeper(recorder, pace, pace * n / len(beside)) for n, recorder in enumerate(beside)),
    ], seconds=real_seconds, rounds=rounds)
    out["real_alone"], out["real_watched"] = real_pace["alone"], real_pace["watched"]
    out["watching_real"] = real_pace["polls"]
    out["load"] = {"before": load_before, "after": os.getloadavg()}
    return out


def recording_summary(hands: list[tuple[bool, float]], elapsed: float, cpu: list[float]) -> dict[str, Any]:
    latencies = [seconds for _, seconds in hands]
    return {"hands": len(hands), "errors": sum(not ok for ok, _ in hands), "p50_ms": percentile(latencies, 0.5) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "cpu_per_second": (cpu[0] + cpu[1]) / elapsed if elapsed else 0.0,
            "clients_per_second": cpu[2] / elapsed if elapsed else 0.0}


# --- the report ------------------------------------------------------------------------------------------------

HEADERS = ["what", "requests", "304s", "p50 ms", "p99 ms", "CPU ms a poll: web", "database", "the bench's clients",
           "CPU s a second: server", "the bench's clients"]


def rows(night: dict[str, Any]) -> list[list[str]]:
    def polls(label: str, entry: dict[str, Any]) -> list[str]:
        return [label, f"{entry['polls']:,} polls", f"{100 * entry['share_304']:.1f}%", f"{entry['p50_ms']:.1f}",
                f"{entry['p99_ms']:.1f}", f"{entry.get('cpu_web_ms', 0):.2f}" if "cpu_web_ms" in entry else "",
                f"{entry.get('cpu_database_ms', 0):.2f}" if "cpu_database_ms" in entry else "",
                f"{entry['cpu_clients_ms']:.2f}" if "cpu_clients_ms" in entry else "", "", ""]

    def hands(label: str, entry: dict[str, Any]) -> list[str]:
        errors = f" ({entry['errors']} failed)" if entry["errors"] else ""
        return [label, f"{entry['hands']:,} hands{errors}", "", f"{entry['p50_ms']:.1f}", f"{entry['p99_ms']:.1f}",
                "", "", "", f"{entry['cpu_per_second']:.2f}",
                f"{entry['clients_per_second']:.2f}" if "clients_per_second" in entry else ""]

    watchers, tables = night["watchers"], night["tables"]
    every = f"a hand every {night['pace']:g} s a table"
    real = (f"a real night's pace (a hand every {night['hand_seconds'] / 60:g} min a table, {night['probes']} "
            f"games beside the night a hand every {night['pace']:g} s)")
    return [
        polls(f"{watchers} watchers, nothing changing (If-None-Match)", night["unchanged"]),
        polls(f"{watchers} watchers asking without an ETag (every answer drawn)", night["drawn"]),
        hands(f"{tables} tables recording, {every}, nobody watching", night["recording_alone"]),
        hands(f"{tables} tables recording, {every}, {watchers} watchers", night["recording_watched"]),
        polls(f"{watchers} watchers while the tables record, {every}", night["watching_while_recording"]),
        hands(f"recording at {real}, nobody watching", night["real_alone"]),
        hands(f"recording at {real}, {watchers} watchers", night["real_watched"]),
        polls(f"{watchers} watchers at a real night's pace", night["watching_real"]),
    ]


def real_night(night: dict[str, Any]) -> tuple[float, float]:
    """At a real table's pace (a hand every ``hand_seconds``), the share of polls answered 304 and the CPU the
    watchers take, in cores, from the two costs of a poll measured: every watcher sees each of its game's hands
    once (the room's board sees every table's)."""
    per_second = night["watchers"] / night["poll_seconds"]
    share_200 = night["poll_seconds"] / night["hand_seconds"]
    if night.get("room_board"):  # the night's board changes with every table's hand
        board_200 = min(1.0, night["tables"] * share_200)
        share_200 = ((night["watchers"] - 1) * share_200 + board_200) / night["watchers"]
    unchanged, drawn = night["unchanged"], night["drawn"]
    cost = [poll_cpu_ms(entry) / 1000 for entry in (unchanged, drawn)]
    return 1 - share_200, per_second * ((1 - share_200) * cost[0] + share_200 * cost[1])


def poll_cpu_ms(entry: dict[str, Any]) -> float:
    """CPU milliseconds a poll took, in gunicorn's workers and PostgreSQL together."""
    return entry["cpu_web_ms"] + entry["cpu_database_ms"]


def ratio(night: dict[str, Any], alone: str, watched: str) -> float:
    first, then = night[alone]["p99_ms"], night[watched]["p99_ms"]
    return then / first if first else float("inf")


def server_words(workers: int | str, threads: int) -> str:
    """gunicorn's workers as the report names them: "2 workers of one thread", "2 workers of 4 threads"."""
    named = f"{workers} worker" if workers == 1 else f"{workers} workers"
    return f"{named} of one thread" if threads <= 1 else f"{named} of {threads} threads"


def server(night: dict[str, Any]) -> str:
    """The gunicorn the night ran on."""
    return server_words(night.get("web_workers", "?"), night.get("web_threads", 1))


def where(night: dict[str, Any]) -> str:
    """Where the scorekeepers and the watchers were answered."""
    if not night.get("poll_workers"):
        return f"on the same gunicorn ({server(night)})"
    return (f"on the same gunicorn ({server(night)}) for the scorekeepers, and the watchers' pages asking a gunicorn "
            f"of their own on the same machine ({server_words(night['poll_workers'], night.get('web_threads', 1))}), "
            "as a proxy routes them in docs/deploy.md's club night set-up (the CPU columns count the scorekeepers' "
            "gunicorn and PostgreSQL alone)")


def board_words(night: dict[str, Any]) -> str:
    if night.get("room_board"):
        return (f"the room's TV on the night's board (`{night['board_page']}`, opened by the organiser, asking "
                f"`{night['board_polled']}` as its page does)")
    return (f"the room's TV on table 1's spectator board (`{night['board_polled']}`, opened with its code; this "
            "version of Scorekeeper has no board of the night)")


def doc_lines(night: dict[str, Any]) -> list[str]:
    share, cores = real_night(night)
    alone, watched = night["recording_alone"], night["recording_watched"]
    real_alone, real_watched = night["real_alone"], night["real_watched"]
    unchanged, drawn = poll_cpu_ms(night["unchanged"]), poll_cpu_ms(night["drawn"])
    measured = real_watched["cpu_per_second"] - real_alone["cpu_per_second"]
    tables, watchers = night["tables"], night["watchers"]
    load = night.get("load", {})
    loads = (f" The load average (one minute) was {load['before'][0]:.1f} when it began and {load['after'][0]:.1f} "
             "when it ended, on two cores shared with other work." if load else "")
    return [
        f"## A club night: {tables} tables and their phones", "",
        f"`bench/club_night.py`, {where(night)}: a night of a private "
        f"league made through the services (`games/services/nights.py`: Spades, an individual movement, a round "
        f"of {night['round_hands']} hands), {4 * tables} players checked in, and its first round started, which "
        f"seats the {tables} tables and starts their games. Each game is followed by four phones asking every "
        f"{night['poll_seconds']:g} s whether it changed, with the ETag of what they show, as the pages do: the "
        "scorekeeper's table page (the spectator board, signed in), the player seated North (their view, signed "
        "in to their own account) and two phones with only the table's code (the player's view, by the table "
        f"pass); and {board_words(night)}: {watchers} watchers. First the watchers alone while nothing changes, "
        "then asking without an ETag (what drawing the answer costs), then recording through the API alone and "
        "with the watchers, in alternating turns, twice: every table's scorekeeper recording a hand every "
        f"{night['pace']:g} s (some two hundred times a real night's pace: every poll sees a change, the watchers' "
        f"dearest case), and at a real night's pace, each table a hand every {night['hand_seconds'] / 60:g} "
        f"minutes, nearly every poll a 304, with {night['probes']} scorekeepers beside the night recording a hand "
        f"every {night['pace']:g} s each into games nobody watches, whose hands (with the tables') measure "
        f"recording.{loads}", "",
        f"An unchanged game's poll (a 304) took {unchanged:.2f} ms of CPU against {drawn:.2f} ms for one drawn in "
        f"full ({unchanged / drawn if drawn else 0:.2f}x). At a real night's pace, recording's p99 with the "
        f"watchers was {real_watched['p99_ms']:.1f} ms against {real_alone['p99_ms']:.1f} ms without "
        f"({ratio(night, 'real_alone', 'real_watched'):.2f}x; p50 {real_watched['p50_ms']:.1f} against "
        f"{real_alone['p50_ms']:.1f} ms), {100 * night['watching_real']['share_304']:.1f}% of the polls were 304s, "
        f"and the turns with the watchers took {measured:.2f} cores more than those without (the watchers' CPU, "
        f"measured; from the two costs of a poll, {100 * share:.1f}% 304s would take {cores:.2f} cores). Every poll "
        f"a change: recording's p99 {watched['p99_ms']:.1f} ms with the watchers against {alone['p99_ms']:.1f} ms "
        f"without ({ratio(night, 'recording_alone', 'recording_watched'):.2f}x); p50 {watched['p50_ms']:.1f} "
        f"against {alone['p50_ms']:.1f} ms.", "",
    ]


def target_rows(night: dict[str, Any], bound: float) -> list[list[str]]:
    from bench.targets import over, row

    watchers = night["watchers"]
    apart = ", the watchers asking a gunicorn of their own" if night.get("poll_workers") else ""
    real = ratio(night, "real_alone", "real_watched")
    dearest = ratio(night, "recording_alone", "recording_watched")
    unchanged = night["unchanged"]
    return [
        row(f"club night, {night['tables']} tables at a real night's pace: recording p99 with {watchers} watchers "
            f"vs without{apart}", f"{real:.2f}x ({night['real_watched']['p99_ms']:.1f} vs "
            f"{night['real_alone']['p99_ms']:.1f} ms)", f"<= {bound:.2f}x", real <= bound, over(real, bound, "x")),
        row(f"club night, every poll a change: recording p99 with {watchers} watchers vs without{apart}",
            f"{dearest:.2f}x ({night['recording_watched']['p99_ms']:.1f} vs {night['recording_alone']['p99_ms']:.1f} "
            "ms)", "", None),
        row("club night: an unchanged game's poll", f"{poll_cpu_ms(unchanged):.2f} ms "
            f"CPU, {100 * unchanged['share_304']:.0f}% answered 304", "304", unchanged["share_304"] == 1.0),
    ]


def explanation(night: dict[str, Any], bound: float) -> str | None:
    """When recording at a real night's pace is slowed by more than ``bound``, what the same run measured that
    says why."""
    if ratio(night, "real_alone", "real_watched") <= bound:
        return None
    polls, unchanged, drawn = night["watching_real"], night["unchanged"], night["drawn"]
    asked = night["watchers"] / night["poll_seconds"]
    _, needed = real_night(night)
    got = night["real_watched"]["cpu_per_second"]
    load = night.get("load", {}).get("after")
    machine = f" (load average {load[0]:.1f} at its end)" if load else ""
    return (
        f"Club night at a real night's pace: the {night['watchers']} watchers' pages ask {asked:.1f} times a "
        f"second; they were answered {polls['per_second']:.1f} times a second, {100 * polls['share_304']:.1f}% "
        f"of them 304s, a poll's p50 {polls['p50_ms']:.0f} ms. A 304 took {poll_cpu_ms(unchanged):.2f} ms of CPU "
        f"({unchanged['cpu_web_ms']:.2f} in the web worker, {unchanged['cpu_database_ms']:.2f} in PostgreSQL) "
        f"and a drawn answer {poll_cpu_ms(drawn):.2f} ms, so the watchers need some {needed:.2f} cores; in those "
        f"turns gunicorn's {server(night)} and PostgreSQL got {got:.2f} cores in all, "
        f"on two cores shared with the bench's clients and the machine's other work{machine}. " + (
            "The app server did not keep up with the polls, and each hand waited in their queue."
            if polls["per_second"] < 0.95 * asked else
            f"The app server kept up with the polls, but they kept its workers busy (a poll took {polls['p50_ms']:.0f} "
            f"ms at the median, for {poll_cpu_ms(unchanged):.0f} ms of CPU), and a hand " + (
                "waited behind them." if night.get("web_threads", 1) <= 1 else
                "shared its worker's interpreter with them (its threads run one at a time).")))

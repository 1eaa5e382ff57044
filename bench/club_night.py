"""A club night on one app server: ten tables, each with four phones following its game and a TV on one of
them, while the scorekeepers record hands. What the watching costs, and what it does to recording.

Run by ``bench/run.py`` (``make bench``) against the same gunicorn as the recording benchmark (production
settings, PostgreSQL). Each table is a Spades game of a private league; its phones ask every two seconds
whether it changed, with the ETag of what they show, as the pages do (``static/live/watch.js``):

- the scorekeeper's table page asks the spectator board (``live/board/``), signed in;
- the seated player's view (``follow/``), signed in, linked to North;
- two phones with only the table's code (``follow/``, the table pass cookie), sitting East and West;
- and one TV, the spectator board of table 1, opened with the table's code (no account).

Phases, in one run: the watchers alone while nothing changes (every answer a 304), the watchers alone asking
without an ETag (every answer drawn: what a 200 costs), then recording alone and recording with the watchers
in alternating turns, so that whatever else the machine does weighs on both. Each scorekeeper records a hand
every ``pace`` seconds (``--pace``: one a second, some two hundred times a real table's pace, so that every
poll sees a change: the watchers' dearest case).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bench.recording import CpuMeter, Recorder
from loadtest.client import Api, percentile

TABLES = 10
POLL_SECONDS = 2.0


@dataclass
class Watcher:
    """One page asking whether its game changed, every ``POLL_SECONDS``."""

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


def night(*, secret_key: str) -> tuple[str, list[int], list[Watcher]]:
    """The league, its ten tables and their watchers, made in the bench database (in-process). The sessions
    and table passes are signed with the app server's ``secret_key``."""
    from django.contrib.auth import get_user_model
    from django.http import HttpResponse
    from django.test import Client, override_settings
    from rest_framework.authtoken.models import Token

    from games.models import Game
    from games.policy import TablePass
    from games.services import (
        game_start,
        invitation_accept,
        invitation_create,
        league_create,
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
    games, watchers = [], []
    with override_settings(SECRET_KEY=secret_key, ALLOWED_HOSTS=["*"]):
        keeper = Client()
        keeper.force_login(owner)
        keeper_cookie = f"sessionid={keeper.cookies['sessionid'].value}"
        for table in range(TABLES):
            people = [player_create(name=f"Table {table + 1} {seat}", by=owner, league=league) for seat in "NESW"]
            member = users.create_user(username=f"club-{stamp}-{table}", password="bench-password-x1")
            invitation_accept(token=invitation_create(league=league, role="member", by=owner, invitee=member).token,
                              by=member)
            player_link(league=league, player=people[0], user=member, by=owner)
            game = game_start(game_type="spades", league=league, by=owner, options={"target": 1_000_000, "lose_at": None},
                              seats={seat: person.pk for seat, person in zip("NESW", people, strict=True)})
            games.append(game.pk)
            player = Client()
            player.force_login(member)
            token = Game.objects.values_list("table_token", flat=True).get(pk=game.pk)
            watchers += [Watcher(f"table {table + 1}: scorekeeper", f"/games/{game.pk}/live/board/", keeper_cookie),
                         Watcher(f"table {table + 1}: player", f"/games/{game.pk}/follow/",
                                 f"sessionid={player.cookies['sessionid'].value}")]
            for seat in "EW":
                watchers.append(Watcher(f"table {table + 1}: code, {seat}", f"/games/{game.pk}/follow/",
                                        pass_cookie(game.pk, token, seat)))
            if table == 0:
                watchers.append(Watcher("TV", f"/games/{game.pk}/live/board/", pass_cookie(game.pk, token, None)))
    return Token.objects.get_or_create(user=owner)[0].key, games, watchers


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


def record(recorders: list[Recorder], *, seconds: float, pace: float) -> list[tuple[bool, float]]:
    """Each scorekeeper records a hand every ``pace`` seconds (on time, whatever the last one took)."""
    results: list[tuple[bool, float]] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def loop(recorder: Recorder, offset: float) -> None:
        due = time.monotonic() + offset
        while due < end:
            time.sleep(max(0.0, due - time.monotonic()))
            outcome = recorder.one()
            with lock:
                results.append(outcome)
            due += pace

    threads = [threading.Thread(target=loop, args=(recorder, pace * n / len(recorders)), daemon=True)
               for n, recorder in enumerate(recorders)]
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
        "seconds": elapsed,
    }


def run(base_url: str, *, meter: CpuMeter, secret_key: str, seconds: float = 60.0, rounds: int = 4,
        pace: float = 1.0) -> dict[str, Any]:
    """The night's measurements: the watchers' cost per poll (304 and 200), recording's latency without and
    with them (``rounds`` turns of each, ``seconds`` in all for each), and the CPU each way."""
    token, games, watchers = night(secret_key=secret_key)
    api, scorekeepers = Api(base_url), Api(base_url, token=token)
    recorders = [Recorder(scorekeepers, game, seed) for seed, game in enumerate(games)]
    for watcher in watchers:  # the pages, opened: each watcher knows the ETag of what it shows
        watcher.ask(api)
    opened = [watcher.answers[-1][0] for watcher in watchers]
    if set(opened) != {200}:
        raise RuntimeError(f"the watchers' pages did not open: {sorted(set(opened))}")
    record(recorders, seconds=2, pace=0.2)  # warm every worker on the recording path
    out: dict[str, Any] = {"tables": TABLES, "watchers": len(watchers), "pace": pace, "poll_seconds": POLL_SECONDS}
    for watcher in watchers:
        watcher.ask(api)  # the ETags as they are now, after the warm-up's hands
    out["unchanged"] = watchers_alone(api, watchers, meter, min(20.0, seconds / 3), conditional=True)
    out["drawn"] = watchers_alone(api, watchers, meter, min(10.0, seconds / 6), conditional=False)
    alone, with_watchers = [], []
    cpu_alone, cpu_watched = [0.0, 0.0], [0.0, 0.0]
    time_alone = time_watched = 0.0
    for watcher in watchers:
        watcher.conditional, watcher.answers = True, []
    for _ in range(rounds):
        hands, elapsed, cpu = phase(meter, lambda: record(recorders, seconds=seconds / rounds, pace=pace))
        alone += hands
        time_alone += elapsed
        cpu_alone = [cpu_alone[0] + cpu[0], cpu_alone[1] + cpu[1]]
        hands, elapsed, cpu = phase(meter, lambda: watched(
            api, watchers, lambda: record(recorders, seconds=seconds / rounds, pace=pace)))
        with_watchers += hands
        time_watched += elapsed
        cpu_watched = [cpu_watched[0] + cpu[0], cpu_watched[1] + cpu[1]]
    answers = [answer for watcher in watchers for answer in watcher.answers]
    out["recording_alone"] = recording_summary(alone, time_alone, cpu_alone)
    out["recording_watched"] = recording_summary(with_watchers, time_watched, cpu_watched)
    polls = summary_of(answers, time_watched, (0.0, 0.0, 0.0))
    out["watching_while_recording"] = {key: polls[key] for key in ("polls", "per_second", "share_304", "errors",
                                                                   "p50_ms", "p99_ms")}
    return out


def recording_summary(hands: list[tuple[bool, float]], elapsed: float, cpu: list[float]) -> dict[str, Any]:
    latencies = [seconds for _, seconds in hands]
    return {"hands": len(hands), "errors": sum(not ok for ok, _ in hands), "p50_ms": percentile(latencies, 0.5) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "cpu_per_second": (cpu[0] + cpu[1]) / elapsed if elapsed else 0.0}


# --- the report ------------------------------------------------------------------------------------------------

HEADERS = ["what", "requests", "304s", "p50 ms", "p99 ms", "CPU ms a poll: web", "database", "CPU s a second"]


def rows(night: dict[str, Any]) -> list[list[str]]:
    def polls(label: str, entry: dict[str, Any]) -> list[str]:
        return [label, f"{entry['polls']:,} polls", f"{100 * entry['share_304']:.0f}%", f"{entry['p50_ms']:.1f}",
                f"{entry['p99_ms']:.1f}", f"{entry.get('cpu_web_ms', 0):.2f}" if "cpu_web_ms" in entry else "",
                f"{entry.get('cpu_database_ms', 0):.2f}" if "cpu_database_ms" in entry else "", ""]

    def hands(label: str, entry: dict[str, Any]) -> list[str]:
        return [label, f"{entry['hands']:,} hands", "", f"{entry['p50_ms']:.1f}", f"{entry['p99_ms']:.1f}", "", "",
                f"{entry['cpu_per_second']:.2f}"]

    watchers = night["watchers"]
    return [
        polls(f"{watchers} watchers, nothing changing (If-None-Match)", night["unchanged"]),
        polls(f"{watchers} watchers asking without an ETag (every answer drawn)", night["drawn"]),
        hands(f"{night['tables']} tables recording, nobody watching", night["recording_alone"]),
        hands(f"{night['tables']} tables recording, {watchers} watchers", night["recording_watched"]),
        polls(f"{watchers} watchers while the tables record", night["watching_while_recording"]),
    ]


def real_night(night: dict[str, Any], *, hand_seconds: float = 180.0) -> tuple[float, float]:
    """At a real table's pace (a hand every ``hand_seconds``), the share of polls answered 304 and the CPU
    the watchers take, in cores: every watcher sees each of its game's hands once."""
    per_second = night["watchers"] / night["poll_seconds"]
    share_200 = night["poll_seconds"] / hand_seconds
    unchanged, drawn = night["unchanged"], night["drawn"]
    cost = [poll_cpu_ms(entry) / 1000 for entry in (unchanged, drawn)]
    return 1 - share_200, per_second * ((1 - share_200) * cost[0] + share_200 * cost[1])


def poll_cpu_ms(entry: dict[str, Any]) -> float:
    """CPU milliseconds a poll took, in gunicorn's workers and PostgreSQL together."""
    return entry["cpu_web_ms"] + entry["cpu_database_ms"]


def doc_lines(night: dict[str, Any]) -> list[str]:
    share, cores = real_night(night)
    alone, watched = night["recording_alone"], night["recording_watched"]
    unchanged, drawn = poll_cpu_ms(night["unchanged"]), poll_cpu_ms(night["drawn"])
    return [
        "## A club night: ten tables and their phones", "",
        f"`bench/club_night.py`, on the same gunicorn: {night['tables']} Spades games of a private league, each "
        "followed by four phones asking every two seconds whether it changed, with the ETag of what they show, as "
        "the pages do: the scorekeeper's table page (the spectator board, signed in), the seated player's view "
        "(signed in) and two phones with only the table's code (the player's view, by the table pass); and a TV "
        f"on table 1's board (by its code): {night['watchers']} watchers. First the watchers alone while nothing changes, then "
        "asking without an ETag (what drawing the answer costs), then each scorekeeper recording a hand every "
        f"{night['pace']:g} s through the API, alone and with the watchers, in alternating turns. A hand a second "
        "a table is some two hundred times a real night's pace: every poll then sees a change, the watchers' "
        "dearest case.", "",
        f"An unchanged game's poll (a 304) took {unchanged:.2f} ms of CPU against {drawn:.2f} ms for one drawn in "
        f"full ({unchanged / drawn if drawn else 0:.2f}x). Recording's p99 with the watchers: {watched['p99_ms']:.1f} ms against {alone['p99_ms']:.1f} ms without "
        f"({watched['p99_ms'] / alone['p99_ms']:.2f}x); p50 {watched['p50_ms']:.1f} against {alone['p50_ms']:.1f} ms. "
        f"At a real night's pace (a hand every three minutes a table), {100 * share:.1f}% of the polls are 304s and "
        f"the {night['watchers']} watchers take about {100 * cores:.1f}% of one core (from the two costs a poll "
        "measured here).", "",
    ]


def target_rows(night: dict[str, Any], bound: float) -> list[list[str]]:
    from bench.targets import over, row

    alone, watched = night["recording_alone"]["p99_ms"], night["recording_watched"]["p99_ms"]
    ratio = watched / alone if alone else float("inf")
    unchanged = night["unchanged"]
    return [
        row(f"club night: recording p99 with {night['watchers']} watchers vs without",
            f"{ratio:.2f}x ({watched:.1f} vs {alone:.1f} ms)", f"<= {bound:.2f}x", ratio <= bound,
            over(ratio, bound, "x")),
        row("club night: an unchanged game's poll", f"{poll_cpu_ms(unchanged):.2f} ms "
            f"CPU, {100 * unchanged['share_304']:.0f}% answered 304", "304", unchanged["share_304"] == 1.0),
    ]

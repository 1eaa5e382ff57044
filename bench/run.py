"""``make bench``: every benchmark, the targets they are held to, a table on the terminal, and docs/benchmarks.md.

    python -m bench.run [--quick] [--write] [--only SECTIONS] [--growth] [--night-tables N] [--web-threads N]
                        [--postgres-port N] [--redis-port N]

- the rules engine (bench/engine.py): hands scored per second (CPU time) for each game;
- recording (bench/recording.py): hands per second and p50/p99 latency through gunicorn and
  PostgreSQL at 1, 4 and 16 clients, beside a minimal DRF endpoint that inserts one row;
- a club night (bench/club_night.py): a night of 20 tables (``--night-tables``) made through the services,
  recording while 80 phones follow their games and a TV the room's board, on the same gunicorn: what a poll
  costs, and recording's latency with and without the watchers, every poll a change and at a real night's pace;
- reads (bench/reads.py): the game, the league page, whole tables, the standings API and the
  spectator board at two league sizes, with query counts, sizes and the 304s of ``If-None-Match``;
- standings at scale (bench/standings.py): rebuild, updates, corrections and reads of a league of
  220 players and 20,000 finished games;
- gunicorn's worker count (bench/workers.py): recording at 16 clients through gunicorns of different
  sizes side by side, which sets the default of ``WEB_WORKERS``;
- exports (bench/exports.py): the league backup and the games CSV at leagues of 2,000 and 20,000 games,
  with their growth factors, and the restore of the backup (through the API: the request, the background
  restore, the peak memory);
- ``--web-threads N`` (or BENCH_WEB_THREADS): gunicorn's threads a worker (``WEB_THREADS``) for every gunicorn of
  the run, to compare with the default (``gunicorn.conf.py``);
- ``--growth`` (``make bench-growth``): the exports and the standings at leagues of 2,000, 20,000 and 100,000
  games, as far as the machine allows in ten minutes for each, with their growth tables.

PostgreSQL comes from DATABASE_URL and Redis from REDIS_URL. When either is not set, the benchmark
starts its own on loopback (a throwaway PostgreSQL cluster in a temporary folder, a private
redis-server), on the port given (``--postgres-port``/``--redis-port``, or BENCH_POSTGRES_PORT and
BENCH_REDIS_PORT) or a free one, and stops them at the end. It works in a fresh database
``scorekeeper_bench`` (BENCH_DATABASE names another) and drops it at the end. The targets table comes first; docs/benchmarks.md is
only rewritten by a complete run (or with ``--write``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import runpy
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import targets as goals  # noqa: E402
from loadtest import stack as services  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
BENCH_DATABASE = os.environ.get("BENCH_DATABASE") or "scorekeeper_bench"
# What a run measures (``--only`` picks some; the rows of one section are always measured in the same run).
SECTIONS = ("engine", "recording", "club_night", "workers", "reads", "standings", "exports")
# League sizes (finished games) of the exports: the usual run, and --growth's (as far as the machine allows).
EXPORT_SIZES, GROWTH_SIZES = (2_000, 20_000), (2_000, 20_000, 100_000)


def sections(text: str) -> tuple[str, ...]:
    chosen = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(SECTIONS)}")
    return tuple(name for name in SECTIONS if name in chosen)


def night_tables(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= 50:
        raise argparse.ArgumentTypeError("a whole number of tables from 1 to 50")
    return count


def machine(postgres: services.Postgres | None, redis_url: str | None, started: list[str]) -> dict[str, str]:
    cpu = platform.processor() or "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        memory = f"{int(Path('/proc/meminfo').read_text().split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        load = "unknown"
    facts = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": f"{os.cpu_count()} (shared with other work: the load average below counts it)",
        "load average (1, 5, 15 min) at the end": load,
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "postgresql": postgres.version() if postgres else "not available",
        "redis": "not available",
        "servers": ", ".join(started) if started else "as configured (DATABASE_URL, REDIS_URL)",
    }
    if redis_url:
        import redis

        # A synchronous client: its answer is the reply itself, not something to await.
        server = cast(dict[str, Any], redis.Redis.from_url(redis_url, socket_connect_timeout=2).info("server"))
        facts["redis"] = server["redis_version"]
    return facts


# --- the tables -----------------------------------------------------------------------------------------


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    return [f"| {' | '.join(headers)} |", f"|{'|'.join(' --- ' for _ in headers)}|",
            *(f"| {' | '.join(row)} |" for row in rows)]


TARGET_HEADERS = ["target", "measured", "bound", "verdict"]
ENGINE_HEADERS = ["game", "hands", "CPU seconds", "hands/s", "hands/s, collector paused"]
RECORDING_HEADERS = ["endpoint", "clients", "requests", "errors", "req/s", "p50 ms", "p99 ms", "overhead",
                     "CPU ms a request: web", "database", "clients"]
READ_HEADERS = ["league", "page", "url", "status", "queries", "median ms", "p90 ms", "size"]
REBUILD_HEADERS = ["league", "players", "games", "hands", "standing lines", "rebuild s"]
WORKERS_HEADERS = ["gunicorn workers", "requests", "errors", "hands/s", "p50 ms", "p99 ms"]
PROFILE_HEADERS = ["part of a request", "record a hand, ms", "minimal DRF insert, ms", "difference"]


def engine_rows(results: list[dict]) -> list[list[str]]:
    return [[row["game"], f"{row['hands']:,}", f"{row['seconds']:.3f}", f"{row['hands_per_second']:,.0f}",
             f"{row['hands_per_second_collector_paused']:,.0f}"] for row in results]


def recording_rows(results: list[dict]) -> list[list[str]]:
    rows = []
    for row in results:
        overhead = f"{row['overhead']:.2f}x" if row.get("overhead") else ""
        rows.append([row["target"], str(row["clients"]), f"{row['requests']:,}", str(row["errors"]),
                     f"{row['per_second']:,.0f}", f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}", overhead,
                     f"{row['cpu_web_ms']:.2f}", f"{row['cpu_database_ms']:.2f}", f"{row['cpu_clients_ms']:.2f}"])
    return rows


def workers_rows(results: list[dict]) -> list[list[str]]:
    return [[str(row.get("label", row["workers"])), f"{row['requests']:,}", str(row["errors"]), f"{row['per_second']:,.0f}",
             f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}"] for row in results]


STANDINGS_GROWTH_HEADERS = ["games", "rebuild s", "update after one more game s", "undo in the last game: tables s",
                            "correction in the middle: tables s / ratings s",
                            "correction in the first: tables s / ratings s", "first game's winner changed: ratings s",
                            "standings API page 1: ms, KiB", "busiest player's page: ms, KiB"]


def standings_growth_rows(reports: list[dict]) -> list[list[str]]:
    def both(entry: dict) -> str:
        return f"{entry['tables_seconds']:.2f} / {entry['update_seconds']:.2f}"

    def read(entry: dict) -> str:
        return f"{entry['median_ms']:.0f}, {entry['bytes'] / 1024:.0f}"

    return [[f"{report['games']:,}", f"{report['rebuild_seconds']:.2f}", f"{report['update_seconds']:.3f}",
             f"{report['undo_last']['tables_seconds']:.2f}", both(report["correct_middle"]),
             both(report["correct_first"]), f"{report['winner_changed']['update_seconds']:.2f}",
             *(read(entry) for entry in report.get("reads", []))]
            for report in reports]


EXPORT_HEADERS = ["download", "games", "hands", "first byte s", "whole s", "size", "peak memory growth"]
GROWTH_HEADERS = ["download", "games", "× games", "× time", "× peak memory growth"]
RESTORE_HEADERS = ["games", "hands", "backup", "answer", "request s", "until restored s", "peak memory",
                   "peak memory growth", "peak with the standings"]


def restore_rows(results: list[dict]) -> list[list[str]]:
    return [[f"{row['games']:,}", f"{row['hands']:,}", f"{row['bytes'] / 2**20:.1f} MiB", str(row["status"]),
             f"{row['request_seconds']:.2f}", f"{row['seconds']:.1f}", f"{row['peak_mib']:.0f} MiB",
             f"{row['peak_growth_mib']:.0f} MiB", f"{row.get('peak_with_standings_mib', 0):.0f} MiB"]
            for row in results]


def export_rows(results: list[dict]) -> list[list[str]]:
    return [[row["download"], f"{row['games']:,}", f"{row['hands']:,}", f"{row['first_byte_seconds']:.2f}",
             f"{row['seconds']:.2f}", f"{row['bytes'] / 2**20:.1f} MiB", f"{row['peak_growth_mib']:.0f} MiB"]
            for row in results]


def growth_rows(results: list[dict]) -> list[list[str]]:
    return [[row["download"], f"{row['from']:,} → {row['to']:,}", f"{row['games']:.1f}", f"{row['time']:.1f}",
             f"{row['memory']:.1f}"] for row in results]


def read_rows(results: list[dict]) -> list[list[str]]:
    size = {"small": "small", "large": "large"}
    return [[size.get(row["size"], row["size"]), row["page"], f"`{row['url']}`", str(row["status"]),
             str(row["queries"]), f"{row['median_ms']:.1f}", f"{row['p90_ms']:.1f}",
             f"{row['bytes'] / 1024:.1f} KiB"] for row in results]


def rebuild_rows(results: list[dict]) -> list[list[str]]:
    return [[row["league"], str(row["players"]), f"{row['games']:,}", f"{row['hands']:,}",
             str(row["standing_lines"]), f"{row['rebuild_seconds']:.2f}"] for row in results]


def render(facts: dict[str, str], results: dict, skipped: list[str], web_workers: int) -> str:
    lines = ["# Benchmarks", "",
             "Written by `make bench` (`bench/run.py`); numbers from one run on the machine below, a shared",
             "virtual machine with two cores: other work ran beside the benchmark (see the load average), so",
             "compare the ratios of things measured side by side more than the rates. Run `make bench` again",
             "before and after a change.", "",
             "## Targets", "", *table(TARGET_HEADERS, goals.targets(results)), "",
             *(line for why in goals.explanations(results) for line in (f"- {why}",)),
             *([""] if goals.explanations(results) else []),
             "## Machine", "", *table(["", ""], [[key, value] for key, value in facts.items()]), ""]
    if skipped:
        lines += ["## Skipped", "", *(f"- {reason}" for reason in skipped), ""]
    if "recording" in results:
        from bench.club_night import server_words

        lines += ["## Recording a hand over HTTP", "",
                  f"gunicorn (`gunicorn.conf.py`: {server_words(web_workers, results.get('web_threads', 1))}, not "
                  "recycled during the run) with",
                  "production settings, PostgreSQL on loopback; the clients are threads in the benchmark process",
                  "on the same machine. Each client records hands into its own long Spades game with",
                  "`expected_number` and an `Idempotency-Key` (`POST /api/v1/games/{id}/hands/`). Beside it, at",
                  "the same concurrency, a minimal DRF endpoint in the same gunicorn (`bench/endpoint.py`: token",
                  "authentication, JSON body, one INSERT). The two take turns, eight turns each per level, so",
                  "whatever else the machine does weighs on both. *overhead* = minimal inserts per second /",
                  "hands per second: what Scorekeeper's checks cost. The last three columns say where the time",
                  "goes: CPU milliseconds a request in gunicorn's workers, in PostgreSQL's server processes and in",
                  "the client threads (from /proc).", "",
                  *table(RECORDING_HEADERS, recording_rows(results["recording"])), "",
                  "Per hand Scorekeeper sends five statements (`tests/api/test_api_recording_statements.py` counts",
                  "them): the token, read by one statement written out once (`api/authentication.py`); then, in two",
                  "round trips (`tests/recording/test_two_round_trips.py` reads them off the connection's protocol",
                  "trace), the BEGIN with the game row locked (with its league, whether the league has webhooks,",
                  "and your role in it), and the hand, the game's totals and the idempotency key's answer with the",
                  "COMMIT (psycopg's pipeline mode). Nothing is read after the commit in a league without webhooks.",
                  "Each is prepared on the server once a connection and then sent as its name and values, so",
                  "PostgreSQL neither parses nor plans it again (`scorekeeper/postgresql/base.py`;",
                  "`DATABASE_PREPARED_STATEMENTS=off` turns it off).",
                  "With the next `expected_number` the key is not looked up first (a reused key fails its unique",
                  "index and the request is retried with the look-up). The baseline uses DRF's own token",
                  "authentication and sends its token read, BEGIN, INSERT and COMMIT, parsed and planned each",
                  "time as Django's statements are. Neither checks its connection first (each ran a statement",
                  "within the last second). Scoring itself is microseconds (above). Everything shares two cores:",
                  "gunicorn's workers,",
                  "PostgreSQL and the client threads, so beyond four clients requests queue for a worker, and",
                  "latency at 16 clients is about 16 / the",
                  "requests per second (Little's law) whatever the server does.", ""]
        if "request_profile" in results:
            from bench.request_profile import rows as profile_rows

            done = results["request_profile"][0]["requests"]
            lines += ["Where one request's time goes (`bench/request_profile.py`): the same two endpoints in this",
                      "process through Django's test client (no HTTP server, no network; the same middleware,",
                      f"authentication, views and statements), one request at a time, {done:,} of each in turns.",
                      "Each statement's time is its round trip and the database's work on it as the request waits",
                      "(statements sent together are one wait); the Python parts are timed by wrapping those",
                      "functions, their statements taken out. Mean ms a request:", "",
                      *table(PROFILE_HEADERS, profile_rows(results["request_profile"])), ""]
    if "club_night" in results:
        from bench.club_night import HEADERS as CLUB_HEADERS
        from bench.club_night import doc_lines as club_lines
        from bench.club_night import rows as club_rows

        lines += [*club_lines(results["club_night"]), *table(CLUB_HEADERS, club_rows(results["club_night"])), ""]
    if "workers" in results:
        lines += ["## gunicorn's worker count", "",
                  "`bench/workers.py`: one gunicorn per worker count, and one of as many workers as cores with",
                  "several threads each, all started at once on the bench database, then",
                  "turns of 16 clients recording hands, each turn on the next gunicorn in line, so that whatever else",
                  "the machine does weighs on every size alike. The defaults of `WEB_WORKERS` and `WEB_THREADS`",
                  "(`gunicorn.conf.py`, docs/deploy.md) are chosen from this.", "",
                  *table(WORKERS_HEADERS, workers_rows(results["workers"])), ""]
    if "standings_growth" in results:
        lines += ["## Standings as a league grows", "",
                  "`bench/standings.py` at each size (`make bench-growth`): the update after one more finished game,",
                  "and corrections each followed by the update: when the tables were right (committed) and when the",
                  "ratings were (learned again after).", "",
                  *table(STANDINGS_GROWTH_HEADERS, standings_growth_rows(results["standings_growth"])), ""]
    if "exports" in results:
        from bench.exports import growth

        lines += ["## Exports as a league grows", "",
                  "`bench/exports.py`: leagues built by `bench/league.py`, then each download asked for by its owner",
                  "in a fresh process (Django's test client, the production code path without an HTTP server) and",
                  "read to its end: the time to its first byte and to its last, its size, and how much the process's",
                  "peak resident memory grew while it was sent.", "",
                  *table(EXPORT_HEADERS, export_rows(results["exports"])), "",
                  "Growth from one size to the next, in the same run:", "",
                  *table(GROWTH_HEADERS, growth_rows(growth(results["exports"]))), ""]
    if results.get("restores"):
        lines += ["## Restores as a league grows", "",
                  "The backup just downloaded, posted as the body of `POST /api/v1/leagues/imports/` in a fresh",
                  "process through Django's WSGI handler, the body read from the file as a server hands it over.",
                  "Over 2.5 MB the request stores it in chunks and answers 202; with no broker the restore runs in",
                  "the same process once the answer is sent (as in a web process without a worker): every game",
                  "checked and re-scored, then written in one transaction. The request's own time, the time until",
                  "the league is restored, the process's peak resident memory until then, and with the league's",
                  "standings computed after it (here in the same process; a task of its own with a worker).", "",
                  *table(RESTORE_HEADERS, restore_rows(results["restores"])), ""]
    if "engine" in results:
        lines += ["## Rules engine", "",
                  "Hands scored per CPU second, replaying one long game of seeded random hands (`bench/engine.py`,",
                  "best of five). Pure Python, one core. The last column measures the same replay with Python's",
                  "cyclic garbage collector paused, to show its share: a replay keeps every hand it scores (each a",
                  "handful of small read-only objects), and the collector passes over all of them again and again",
                  "as a 10,000-hand game grows; a real game of twenty hands never wakes it.", "",
                  *table(ENGINE_HEADERS, engine_rows(results["engine"])), ""]
    if "reads" in results:
        lines += ["## Reads", "",
                  "In-process with Django's test client (no network), anonymous, against the bench database;",
                  "leagues built by `bench/league.py` (finished games of every type with real hands). Query",
                  "counts from `CaptureQueriesContext`; they do not grow with the league. The rows with",
                  "`If-None-Match` send back the ETag of the answer above them (weak: as a proxy that compresses",
                  "passes it on).", "",
                  *table(READ_HEADERS, read_rows(results["reads"])), "",
                  "Standings are stored rows, computed by the worker; the rebuild of each league from its",
                  "hands (`league_standings_recompute`):", "",
                  *table(REBUILD_HEADERS, rebuild_rows(results["rebuilds"])), ""]
    if "standings" in results:
        lines += ["## Standings of a large league", "",
                  "`bench/standings.py` on the same PostgreSQL: a synthetic league (hands played through the",
                  "engine, rows inserted in bulk), its full rebuild, the update after one more finished game (the",
                  "task, folding the game into the stored rows), corrections of counted games through the",
                  "services, each followed by the task (as a worker, or without one the web process once the",
                  "answer is sent, would run it), and the standings read.", "",
                  "```", results["standings"], "```", ""]
    return "\n".join(lines)


def print_table(title: str, headers: list[str], rows: list[list[str]]) -> None:
    rows = [headers, *rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(headers))]
    print(f"\n{title}")
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


def print_results(results: dict, skipped: list[str]) -> None:
    print_table("targets", TARGET_HEADERS, goals.targets(results))
    for why in goals.explanations(results):
        print(f"- {why}")
    sections = [
        ("recording", RECORDING_HEADERS, recording_rows),
        ("workers", WORKERS_HEADERS, workers_rows),
        ("engine", ENGINE_HEADERS, engine_rows),
        ("reads", READ_HEADERS, read_rows),
        ("rebuilds", REBUILD_HEADERS, rebuild_rows),
    ]
    for name, headers, rows_of in sections:
        if name in results:
            print_table(name, headers, rows_of(results[name]))
    if "club_night" in results:
        from bench.club_night import HEADERS as CLUB_HEADERS
        from bench.club_night import doc_lines as club_lines
        from bench.club_night import explanation as club_explanation
        from bench.club_night import rows as club_rows
        from bench.club_night import target_rows as club_targets

        night = results["club_night"]
        print_table("a club night", CLUB_HEADERS, club_rows(night))
        missed = club_explanation(night, goals.CLUB_NIGHT_P99_RATIO)
        print("\nthe club night, as docs/benchmarks.md gives it (its targets, what a miss says, its section):\n")
        print("\n".join([*table(TARGET_HEADERS, club_targets(night, goals.CLUB_NIGHT_P99_RATIO)), "",
                         *([f"- {missed}", ""] if missed else []), *club_lines(night),
                         *table(CLUB_HEADERS, club_rows(night))]))
    if "standings_growth" in results:
        print_table("standings as a league grows", STANDINGS_GROWTH_HEADERS,
                    standings_growth_rows(results["standings_growth"]))
    if "exports" in results:
        from bench.exports import growth

        print_table("exports", EXPORT_HEADERS, export_rows(results["exports"]))
        print_table("exports: growth", GROWTH_HEADERS, growth_rows(growth(results["exports"])))
    if results.get("restores"):
        print_table("restores", RESTORE_HEADERS, restore_rows(results["restores"]))
    if "request_profile" in results:
        from bench.request_profile import rows as profile_rows

        print_table("a request, part by part (mean ms)", PROFILE_HEADERS, profile_rows(results["request_profile"]))
    if "standings" in results:
        print("\nstandings of a large league\n" + results["standings"])
    for reason in skipped:
        print(f"SKIPPED: {reason}")


# --- the servers ---------------------------------------------------------------------------------------------


@contextlib.contextmanager
def servers(args, skipped: list[str], started: list[str]) -> Iterator[tuple[str | None, str | None]]:
    """(PostgreSQL URL, Redis URL): the configured ones, else private ones started here and stopped after."""
    workdir = services.work_dir("scorekeeper-bench-servers-")
    own: list[services.Process] = []
    database_url = os.environ.get("DATABASE_URL")
    redis_url = os.environ.get("REDIS_URL")
    try:
        if not database_url:
            try:
                server = services.postgres_server(folder=workdir / "postgres", port=args.postgres_port)
                own.append(server)
                database_url = server.url
                started.append(f"own PostgreSQL on 127.0.0.1:{database_url.rsplit(':', 1)[1].split('/')[0]} (fsync off)")
            except services.StackError as error:
                skipped.append(f"recording and reads: no PostgreSQL ({error})")
        elif not database_url.startswith(("postgres://", "postgresql://")):
            skipped.append(f"recording and reads: they need PostgreSQL (DATABASE_URL={database_url})")
            database_url = None
        if not redis_url:
            try:
                server = services.redis_server(log=workdir / "redis.log", port=args.redis_port)
                own.append(server)
                redis_url = server.url
                started.append(f"own Redis on 127.0.0.1:{server.port}")
            except (services.StackError, OSError) as error:
                skipped.append(f"Redis: none could be started ({error}); gunicorn ran without it")
                redis_url = None
        elif not services.redis_ping(redis_url):
            skipped.append(f"Redis not reachable ({redis_url}); gunicorn ran without it")
            redis_url = None
        yield database_url, redis_url
    finally:
        for server in reversed(own):
            if server.name == "postgres":
                services.stop_postgres(server)
            else:
                server.stop()


# --- running it ---------------------------------------------------------------------------------------------


def standings_at_scale(database_url: str, *, games: int, workdir: Path) -> tuple[str, dict]:
    """bench/standings.py's report and timings: rebuild, updates, corrections and reads of ``games`` games."""
    report = workdir / "standings.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "standings.py"), "--games", str(games),
                           "--json", str(report)],
                          env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"},
                          capture_output=True, text=True, timeout=3600, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bench/standings.py failed:\n{done.stderr[-2000:]}")
    return done.stdout.strip(), json.loads(report.read_text())


def standings_growth(sizes: tuple[int, ...], database_url: str, *, workdir: Path, budget: float) -> list[dict]:
    """bench/standings.py's timings at each league size, the next size left out once its time, foreseen from the
    sizes measured, would pass ``budget`` seconds.

    A run has a fixed part (the template games played through the engine, the migrations) besides the part that
    grows with the league, so the time foreseen is the straight line through the last two sizes measured; after
    the first size alone, the next is run if the first took less than the budget."""
    reports: list[dict] = []
    spent: list[tuple[int, float]] = []
    for games in sizes:
        foreseen = foreseen_seconds(spent, games)
        if foreseen is not None and foreseen > budget:
            print(f"standings at {games:,} games left out: it would take about {foreseen:.0f} s", flush=True)
            break
        print(f"standings at {games:,} games (bench/standings.py) ...", flush=True)
        started = time.perf_counter()
        reports.append(standings_at_scale(database_url, games=games, workdir=workdir)[1])
        spent.append((games, time.perf_counter() - started))
    return reports


def foreseen_seconds(spent: list[tuple[int, float]], games: int) -> float | None:
    """The time a run of ``games`` games will take, on the line through the last two runs (``(games, seconds)``);
    with one run, its own time (the next is not foreseen to take less); None before any."""
    if not spent:
        return None
    if len(spent) == 1:
        return spent[0][1]
    (small, small_seconds), (large, large_seconds) = spent[-2:]
    slope = max(0.0, (large_seconds - small_seconds) / (large - small))
    return large_seconds + slope * (games - large)


def default_web_threads() -> int:
    """gunicorn.conf.py's ``threads`` where ``WEB_THREADS`` is not set."""
    saved = os.environ.pop("WEB_THREADS", None)
    try:
        return int(runpy.run_path(str(ROOT / "gunicorn.conf.py"))["threads"])
    finally:
        if saved is not None:
            os.environ["WEB_THREADS"] = saved


def default_web_workers() -> int:
    """gunicorn.conf.py's ``workers`` where ``WEB_WORKERS`` is not set."""
    saved = os.environ.pop("WEB_WORKERS", None)
    try:
        return int(runpy.run_path(str(ROOT / "gunicorn.conf.py"))["workers"])
    finally:
        if saved is not None:
            os.environ["WEB_WORKERS"] = saved


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # in-process work needs no broker; gunicorn gets Redis
    os.environ["DEBUG"] = "false"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    # In-process, the request profile records hands beside the baseline's endpoint and the reads ask for
    # pages, each as fast as it can: no request limits (as for gunicorn, loadtest.stack.app_env).
    os.environ["THROTTLE_USER_WRITES"] = "off"
    os.environ["THROTTLE_ANONYMOUS_READS"] = "off"
    os.environ["SCOREKEEPER_BENCH_ENDPOINT"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()


def measure(database_url: str, redis_url: str | None, args, results: dict) -> int:
    """Recording, reads and standings at scale in a fresh database on ``database_url``'s server."""
    postgres = services.Postgres(database_url)
    workdir = services.work_dir("scorekeeper-bench-")
    bench_url = postgres.create(BENCH_DATABASE)
    server = None
    try:
        print(f"migrating {BENCH_DATABASE} ...", flush=True)
        services.migrate(bench_url, workdir / "migrate.log")
        services.collect_static(bench_url, workdir / "collectstatic.log")  # the club night's pages
        setup_django(bench_url)
        from django.db import connection

        from bench.endpoint import CREATE_TABLE

        with connection.cursor() as cursor:
            cursor.execute(CREATE_TABLE)
        env = services.app_env(database_url=bench_url,
                               redis_url=services.with_path(redis_url, "8") if redis_url else None,
                               extra={"SCOREKEEPER_BENCH_ENDPOINT": "1", "WEB_MAX_REQUESTS": "0",
                                      **({"WEB_THREADS": str(args.web_threads)} if args.web_threads else {})})
        web_workers = results["web_workers"] = int(env.get("WEB_WORKERS") or default_web_workers())
        results["web_threads"] = int(env.get("WEB_THREADS") or default_web_threads())
        from bench import reads, recording

        if "recording" in args.only or "club_night" in args.only:
            server = services.gunicorn(env=env, log=workdir / "gunicorn.log")
            assert server.popen is not None  # started
            meter = recording.CpuMeter(server.popen.pid, BENCH_DATABASE)
            if "recording" in args.only:
                print(f"recording through gunicorn at {server.url} ...", flush=True)
                results["recording"] = recording.run(server.url, seconds=4 if args.quick else 12,
                                                     max_requests=2000 if args.quick else 8000, meter=meter)
            if "club_night" in args.only:
                print(f"a club night: {args.night_tables} tables recording, {4 * args.night_tables} phones and the "
                      "room's board watching ...", flush=True)
                from bench import club_night

                # With --poll-workers, the watchers' pages ask a gunicorn of their own on the same machine, as a proxy
                # routes them in docs/deploy.md's club night set-up; the scorekeepers record through the first.
                polls = (services.gunicorn(env=env, log=workdir / "gunicorn-polls.log", workers=args.poll_workers)
                         if args.poll_workers else None)
                try:
                    # Three minutes each way at a real night's pace: some 900 hands each, so that a p99 is not
                    # two or three hands' luck.
                    results["club_night"] = club_night.run(
                        server.url, meter=meter, secret_key=env["SECRET_KEY"], tables=args.night_tables,
                        seconds=8 if args.quick else 20, real_seconds=20 if args.quick else 180,
                        rounds=2 if args.quick else 4, watch_url=polls.url if polls else None)
                finally:
                    if polls is not None:
                        polls.stop()
                results["club_night"]["web_workers"] = web_workers
                results["club_night"]["web_threads"] = results["web_threads"]
                results["club_night"]["poll_workers"] = args.poll_workers
            server.stop()
            server = None
        if "recording" in args.only:
            print("a request, part by part (in-process) ...", flush=True)
            from bench import request_profile

            results["request_profile"] = request_profile.run(requests=200 if args.quick else 800)
        if "workers" in args.only:
            from bench import workers

            lineup = ", ".join(workers.label(*size) for size in workers.lineup(results["web_threads"]))
            print(f"gunicorn's worker count: {lineup} workers side by side ...",
                  flush=True)
            results["workers"] = workers.run(env, workdir, seconds=8 if args.quick else 24)
        if "reads" in args.only:
            print("reads ...", flush=True)
            sizes = {"small": (20, 100), "large": (60, 600)} if args.quick else reads.SIZES
            results["reads"], results["rebuilds"] = reads.run(sizes)
        if "exports" in args.only:
            from bench import exports

            export_sizes = (200, 2_000) if args.quick else GROWTH_SIZES if args.growth else EXPORT_SIZES
            print(f"exports at {', '.join(f'{size:,}' for size in export_sizes)} games ...", flush=True)
            results["exports"], results["restores"] = exports.run(export_sizes, bench_url, budget=args.budget)
        if "standings" in args.only and args.growth:
            results["standings_growth"] = standings_growth((200, 2_000) if args.quick else GROWTH_SIZES, bench_url,
                                                           workdir=workdir, budget=args.budget)
        elif "standings" in args.only:
            print("standings of a large league (bench/standings.py) ...", flush=True)
            results["standings"], results["standings_report"] = standings_at_scale(
                bench_url, games=2000 if args.quick else 20000, workdir=workdir)
        return web_workers
    finally:
        if server is not None:
            server.stop()
        from django.db import connections

        connections.close_all()
        postgres.drop(BENCH_DATABASE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter levels and smaller leagues (a smoke run)")
    parser.add_argument("--write", action="store_true", help="write docs/benchmarks.md even after a partial run")
    parser.add_argument("--postgres-port", type=int, default=int(os.environ.get("BENCH_POSTGRES_PORT") or 0) or None,
                        help="port of the PostgreSQL started when DATABASE_URL is not set (default: a free one)")
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT") or 0) or None,
                        help="port of the Redis started when REDIS_URL is not set (default: a free one)")
    parser.add_argument("--growth", action="store_true",
                        help="exports and standings at leagues of 2,000, 20,000 and 100,000 games (as far as --budget "
                             "allows), with the growth tables; implies --only exports,standings unless --only says "
                             "otherwise")
    parser.add_argument("--budget", type=float, default=600.0,
                        help="seconds each part of --growth may take before its larger sizes are left out")
    parser.add_argument("--web-threads", type=int, default=int(os.environ.get("BENCH_WEB_THREADS") or 0) or None,
                        help="gunicorn's threads a worker (WEB_THREADS) for every gunicorn "
                             "of the run (default: gunicorn.conf.py's)")
    parser.add_argument("--poll-workers", type=int, default=int(os.environ.get("BENCH_POLL_WORKERS") or 0),
                        help="the club night's watchers ask a gunicorn of their own with this many workers (0: the "
                             "scorekeepers' gunicorn, the default)")
    parser.add_argument("--night-tables", type=night_tables, default=20,
                        help="the club night's tables, four players and four phones each (default: 20)")
    parser.add_argument("--only", type=sections, default=None,
                        help=f"a comma-separated choice of {', '.join(SECTIONS)} (default: all of them)")
    args = parser.parse_args()
    if args.only is None:
        args.only = ("standings", "exports") if args.growth else SECTIONS

    results: dict = {}
    skipped: list[str] = []
    started: list[str] = []
    from bench import engine

    if "engine" in args.only:
        print("engine ...", flush=True)
        results["engine"] = engine.run(hands=2000 if args.quick else 10000)
    web_workers = 0
    with servers(args, skipped, started) as (database_url, redis_url):
        postgres = services.Postgres(database_url) if database_url else None
        if postgres is not None and not postgres.reachable():
            skipped.append(f"recording and reads: PostgreSQL not reachable ({database_url})")
            postgres = None
        if postgres is not None and database_url:
            web_workers = measure(database_url, redis_url, args, results)
        facts = machine(postgres, redis_url, started)
    print_results(results, skipped)
    if args.only != SECTIONS:
        skipped.append(f"only {', '.join(args.only)} (--only)")
    if skipped and not args.write:
        print(f"\n{DOC.relative_to(ROOT)} not rewritten after a partial run (use --write to write it anyway)")
    else:
        DOC.write_text(render(facts, results, skipped, web_workers) + "\n")
        print(f"\nwrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    started_at = time.perf_counter()
    code = main()
    print(f"done in {time.perf_counter() - started_at:.0f} s")
    sys.exit(code)

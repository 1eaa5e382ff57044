"""``make bench``: every benchmark, a table on the terminal, and docs/benchmarks.md.

    python -m bench.run [--quick] [--write]

- the rules engine (bench/engine.py): hands scored per second for each game;
- recording (bench/recording.py): hands per second and p50/p99 latency through gunicorn and
  PostgreSQL at 1, 4 and 16 clients, beside a minimal DRF endpoint that inserts one row;
- reads (bench/reads.py): game page, API game detail and league standings at two league sizes,
  with query counts, and the standings rebuild of each league;
- standings at scale (bench/standings.py): rebuild, incremental update and read of a league of
  220 players and 20,000 finished games.

PostgreSQL comes from DATABASE_URL (default postgres://postgres@127.0.0.1:55432/scorekeeper):
the benchmark works in a fresh database ``scorekeeper_bench`` on that server and drops it at
the end. Redis (REDIS_URL, default redis://127.0.0.1:56379/0) is given to gunicorn when it
answers. Without PostgreSQL only the engine runs; what was skipped is said, and
docs/benchmarks.md is only rewritten by a complete run (or with ``--write``).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loadtest import stack as services  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
BENCH_DATABASE = "scorekeeper_bench"


def machine(postgres: services.Postgres | None, redis_url: str | None) -> dict[str, str]:
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
    facts = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "postgresql": postgres.version() if postgres else "not available",
        "redis": "not available",
    }
    if redis_url:
        import redis

        facts["redis"] = redis.Redis.from_url(redis_url, socket_connect_timeout=2).info("server")["redis_version"]
    return facts


# --- the table and the page -----------------------------------------------------------------------------


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    return [f"| {' | '.join(headers)} |", f"|{'|'.join(' --- ' for _ in headers)}|",
            *(f"| {' | '.join(row)} |" for row in rows)]


def engine_rows(results: list[dict]) -> list[list[str]]:
    return [[row["game"], f"{row['hands']:,}", f"{row['seconds']:.3f}", f"{row['hands_per_second']:,.0f}"]
            for row in results]


def recording_rows(results: list[dict]) -> list[list[str]]:
    rows = []
    for row in results:
        overhead = f"{row['overhead']:.1f}x" if row.get("overhead") else ""
        rows.append([row["target"], str(row["clients"]), f"{row['requests']:,}", str(row["errors"]),
                     f"{row['per_second']:,.0f}", f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}", overhead])
    return rows


def read_rows(results: list[dict]) -> list[list[str]]:
    return [[row["league"], row["page"], f"`{row['url']}`", str(row["queries"]), f"{row['median_ms']:.1f}",
             f"{row['p90_ms']:.1f}", f"{row['bytes'] / 1024:.0f} KiB"] for row in results]


def rebuild_rows(results: list[dict]) -> list[list[str]]:
    return [[row["league"], str(row["players"]), f"{row['games']:,}", f"{row['hands']:,}",
             str(row["standing_lines"]), f"{row['rebuild_seconds']:.2f}"] for row in results]


def render(facts: dict[str, str], results: dict, skipped: list[str], web_workers: int) -> str:
    lines = ["# Benchmarks", "",
             "Written by `make bench` (`bench/run.py`); numbers from one run on the machine below. They are for",
             "comparing changes on one machine, not promises: run `make bench` again before and after a change.", "",
             "## Machine", "", *table(["", ""], [[key, value] for key, value in facts.items()]), ""]
    if skipped:
        lines += ["## Skipped", "", *(f"- {reason}" for reason in skipped), ""]
    if "engine" in results:
        lines += ["## Rules engine", "",
                  "Hands scored per second, replaying one long game of seeded random hands (`bench/engine.py`, best",
                  "of three). Pure Python, one core.", "",
                  *table(["game", "hands", "seconds", "hands/s"], engine_rows(results["engine"])), ""]
    if "recording" in results:
        lines += ["## Recording a hand over HTTP", "",
                  f"gunicorn (`gunicorn.conf.py`: {web_workers} sync workers) with production settings, PostgreSQL",
                  "on loopback; the clients are threads in the benchmark process on the same machine. Each client",
                  "records hands into its own long Spades game with `expected_number` and an `Idempotency-Key`",
                  "(`POST /api/v1/games/{id}/hands/`). Beside it, at the same concurrency, a minimal DRF endpoint",
                  "in the same gunicorn (`bench/endpoint.py`: token authentication, JSON body, one INSERT).",
                  "*overhead* = minimal inserts per second / hands per second: what Scorekeeper's checks cost.",
                  "", *table(["endpoint", "clients", "requests", "errors", "req/s", "p50 ms", "p99 ms", "overhead"],
                             recording_rows(results["recording"])), "",
                  "Per hand Scorekeeper sends 15 statements in two transactions: the token, the game (may you",
                  "see it?), the idempotency key's claim (a savepoint and an insert, committed), then the game row",
                  "locked, your role, the hand inserted, the game's totals updated and the key marked done. The",
                  "baseline sends 4 (the token, BEGIN, INSERT, COMMIT). Scoring itself is microseconds (above).",
                  "Everything here shares two cores: gunicorn's workers, PostgreSQL and the client threads, so",
                  "beyond 4 clients requests queue for a worker and the p50 grows with the queue. On a shared",
                  "virtual machine two runs can differ by a third: compare the ratio more than the rates.", ""]
    if "reads" in results:
        lines += ["## Reads", "",
                  "In-process with Django's test client (no network), anonymous, against the bench database;",
                  "leagues built by `bench/standings.py` (finished games of every type with real hands). Query",
                  "counts from `CaptureQueriesContext`; they do not grow with the league.", "",
                  *table(["league", "page", "url", "queries", "median ms", "p90 ms", "size"],
                         read_rows(results["reads"])), "",
                  "Standings are stored rows, computed by the worker; the rebuild of each league from its",
                  "hands (`league_standings_recompute`):", "",
                  *table(["league", "players", "games", "hands", "standing lines", "rebuild s"],
                         rebuild_rows(results["rebuilds"])), ""]
    if "standings" in results:
        lines += ["## Standings of a large league", "",
                  "`bench/standings.py` on the same PostgreSQL: a synthetic league (hands played through the",
                  "engine, rows inserted in bulk), its full rebuild, the update after one more finished game (the",
                  "task, folding the game into the stored rows), the same update again, and the standings read.", "",
                  "```", results["standings"], "```", ""]
    return "\n".join(lines)


def print_results(results: dict, skipped: list[str]) -> None:
    sections = [
        ("engine", ["game", "hands", "seconds", "hands/s"], engine_rows),
        ("recording", ["endpoint", "clients", "requests", "errors", "req/s", "p50 ms", "p99 ms", "overhead"],
         recording_rows),
        ("reads", ["league", "page", "url", "queries", "median ms", "p90 ms", "size"], read_rows),
        ("rebuilds", ["league", "players", "games", "hands", "standing lines", "rebuild s"], rebuild_rows),
    ]
    for name, headers, rows_of in sections:
        if name not in results:
            continue
        rows = [headers, *rows_of(results[name])]
        widths = [max(len(row[i]) for row in rows) for i in range(len(headers))]
        print(f"\n{name}")
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    if "standings" in results:
        print("\nstandings of a large league\n" + results["standings"])
    for reason in skipped:
        print(f"SKIPPED: {reason}")


# --- running it ---------------------------------------------------------------------------------------------


def standings_at_scale(database_url: str, *, games: int) -> str:
    """bench/standings.py's report: rebuild, incremental update and read of a league of ``games`` games."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "standings.py"), "--games", str(games)],
                          env={**os.environ, "DATABASE_URL": database_url}, capture_output=True, text=True,
                          timeout=1800, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bench/standings.py failed:\n{done.stderr[-2000:]}")
    return done.stdout.strip()


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # in-process work needs no broker; gunicorn gets Redis
    os.environ["DEBUG"] = "false"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter levels and smaller leagues (a smoke run)")
    parser.add_argument("--write", action="store_true", help="write docs/benchmarks.md even after a partial run")
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL") or services.DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or services.DEFAULT_REDIS_URL
    postgres = services.Postgres(database_url) if database_url.startswith(("postgres://", "postgresql://")) else None
    skipped = []
    if postgres is not None and not postgres.reachable():
        postgres = None
    if postgres is None:
        skipped.append(f"recording and reads: PostgreSQL not reachable (DATABASE_URL={database_url})")
    if not services.redis_ping(redis_url):
        skipped.append(f"Redis not reachable ({redis_url}); gunicorn ran without it (recording queues no tasks)")
        redis_url = None

    results: dict = {}
    from bench import engine

    print("engine ...", flush=True)
    results["engine"] = engine.run(hands=2000 if args.quick else 10000)
    web_workers = 0
    if postgres is not None:
        workdir = services.work_dir("scorekeeper-bench-")
        bench_url = postgres.create(BENCH_DATABASE)
        server = None
        try:
            print(f"migrating {BENCH_DATABASE} ...", flush=True)
            services.migrate(bench_url, workdir / "migrate.log")
            setup_django(bench_url)
            from django.db import connection

            from bench.endpoint import CREATE_TABLE

            with connection.cursor() as cursor:
                cursor.execute(CREATE_TABLE)
            env = services.app_env(database_url=bench_url,
                                   redis_url=services.with_path(redis_url, "8") if redis_url else None,
                                   extra={"SCOREKEEPER_BENCH_ENDPOINT": "1"})
            web_workers = int(env.get("WEB_WORKERS") or (os.cpu_count() or 1) * 2 + 1)
            server = services.gunicorn(env=env, log=workdir / "gunicorn.log")
            from bench import reads, recording

            print(f"recording through gunicorn at {server.url} ...", flush=True)  # type: ignore[attr-defined]
            results["recording"] = recording.run(server.url, seconds=3 if args.quick else 10,  # type: ignore[attr-defined]
                                                 max_requests=1000 if args.quick else 5000)
            server.stop()
            server = None
            print("reads ...", flush=True)
            sizes = {"small": (20, 100), "large": (60, 600)} if args.quick else reads.SIZES
            results["reads"], results["rebuilds"] = reads.run(sizes)
            print("standings of a large league (bench/standings.py) ...", flush=True)
            results["standings"] = standings_at_scale(bench_url, games=2000 if args.quick else 20000)
        finally:
            if server is not None:
                server.stop()
            from django.db import connections

            connections.close_all()
            postgres.drop(BENCH_DATABASE)
    facts = machine(postgres, redis_url)
    print_results(results, skipped)
    if skipped and not args.write:
        print(f"\n{DOC.relative_to(ROOT)} not rewritten after a partial run (use --write to write it anyway)")
    else:
        DOC.write_text(render(facts, results, skipped, web_workers) + "\n")
        print(f"\nwrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"done in {time.perf_counter() - started:.0f} s")
    sys.exit(code)

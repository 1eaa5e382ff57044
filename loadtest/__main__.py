"""``make load``: the full load test (50 tables) and every fault scenario, against real services.

    python -m loadtest [--tables 50] [--ci] [load worker database redis]

PostgreSQL and Redis come from DATABASE_URL and REDIS_URL (defaults: this project's loopback
ports). Each scenario runs on a fresh database with its own gunicorn and Celery worker.
Exits non-zero if any scenario broke a promise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from . import stack as services
from .scenarios import Size
from .session import SCENARIOS, Session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scenarios = SCENARIOS
    parser.add_argument("scenarios", nargs="*", help=f"some of {', '.join(scenarios)} (default: all)")
    parser.add_argument("--tables", type=int, default=None, help="tables at once (full: 50, --ci: 12)")
    parser.add_argument("--ci", action="store_true", help="the small CI-sized run")
    args = parser.parse_args()
    unknown = set(args.scenarios) - set(scenarios)
    if unknown:
        parser.error(f"no such scenario: {', '.join(sorted(unknown))}")

    database_url = os.environ.get("DATABASE_URL") or services.DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or services.DEFAULT_REDIS_URL
    if not database_url.startswith(("postgres://", "postgresql://")):
        print(f"the load test needs PostgreSQL; DATABASE_URL is {database_url}", file=sys.stderr)
        return 2
    if not services.Postgres(database_url).reachable():
        print(f"PostgreSQL is not reachable at {database_url}; start it (see docs/load.md)", file=sys.stderr)
        return 2
    if not services.redis_ping(redis_url):
        print(f"Redis is not reachable at {redis_url}; start it (see docs/load.md)", file=sys.stderr)
        return 2

    size = Size.ci(args.tables or 12) if args.ci else Size.full(args.tables or 50)
    session = Session(database_url=database_url, redis_url=redis_url)
    print(f"logs in {session.workdir}")
    failed = False
    started = time.perf_counter()
    try:
        for name in args.scenarios or list(scenarios):
            outcome = session.run(name, size)
            print(outcome.report(), flush=True)
            failed |= bool(outcome.failures)
    finally:
        session.close()
    print(f"{'FAILED' if failed else 'all scenarios passed'} in {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

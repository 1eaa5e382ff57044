"""The pieces of a production-like deployment, started as subprocesses on loopback.

A fresh PostgreSQL database per run (cloned from a migrated template, so a scenario starts in a
second), gunicorn serving ``scorekeeper.wsgi`` with production settings, a Celery worker, and a
private ``redis-server`` when a scenario needs to stop Redis without touching anyone else's.

Every process is started in its own session, so stopping (or SIGKILLing) one takes its children
with it and nothing else. This module does not import Django: the harness talks to the stack
over HTTP and runs ``loadtest.dbtool`` in a subprocess when it needs to look in the database.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:55432/scorekeeper"
DEFAULT_REDIS_URL = "redis://127.0.0.1:56379/0"


class StackError(RuntimeError):
    """A service would not start, or did not answer in time."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def with_path(url: str, path: str) -> str:
    """``url`` with its path (database name, Redis db number) replaced."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + path.lstrip("/"), parts.query, parts.fragment))


# --- PostgreSQL ------------------------------------------------------------------------------------


class Postgres:
    """Administration of the PostgreSQL server behind ``url``: databases made and dropped freely."""

    def __init__(self, url: str):
        self.url = url

    def connect(self):
        import psycopg

        return psycopg.connect(with_path(self.url, "postgres"), autocommit=True, connect_timeout=5)

    def reachable(self) -> bool:
        try:
            with self.connect():
                return True
        except Exception:  # noqa: BLE001 - any failure means "not here"
            return False

    def version(self) -> str:
        with self.connect() as conn:
            return conn.execute("show server_version").fetchone()[0]

    def database_url(self, name: str) -> str:
        return with_path(self.url, name)

    def create(self, name: str, *, template: str | None = None) -> str:
        from psycopg import sql

        self.drop(name)
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
        with self.connect() as conn:
            conn.execute(statement)
        return self.database_url(name)

    def drop(self, name: str) -> None:
        from psycopg import sql

        with self.connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def terminate(self, database: str, *, busy_only: bool = True) -> int:
        """Drop the server side of connections to ``database``: those inside a query or transaction when
        ``busy_only``, else every one. Returns how many were terminated."""
        states = "('active', 'idle in transaction')" if busy_only else "('active', 'idle in transaction', 'idle')"
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "  # noqa: S608 - states is a constant
                f"WHERE datname = %s AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
                f"AND state IN {states}",
                (database,),
            ).fetchall()
        return sum(1 for (done,) in rows if done)


def postgres_bin() -> Path:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl): Debian keeps them off the PATH."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(path.parts[-3]))
    if found:
        return found[-1].parent
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl:
        return Path(pg_ctl).parent
    raise StackError("PostgreSQL's server programs (pg_ctl, initdb) are not installed")


class PostgresServer:
    """A PostgreSQL server of its own (initdb into a folder of the run), so a scenario may restart it.

    PostgreSQL refuses to run as root: as root, its programs run as the ``postgres`` user, which then
    owns the folder (as in .ci/run). Its log is ``postgres.log`` in that folder.
    """

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.bin = postgres_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-postgres-"))
        self.folder.chmod(0o755)
        self.data, self.log = self.folder / "data", self.folder / "postgres.log"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self.start()

    def run(self, program: str, *args: str, timeout: float = 120) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        if result.returncode:
            raise StackError(f"{program} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")

    def start(self) -> None:
        """Start the server and return once it accepts connections."""
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c max_connections=200"
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` ends every session (as a restart does), ``immediate`` as a crash would."""
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def close(self) -> None:
        try:
            self.stop("immediate")
        except StackError:
            pass  # not running
        shutil.rmtree(self.folder, ignore_errors=True)


def manage(database_url: str, log: Path, *command: str) -> None:
    """``manage.py COMMAND`` against ``database_url``, its output appended to ``log``."""
    env = app_env(database_url=database_url, redis_url=None)
    with log.open("ab") as out:
        result = subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT, timeout=300, check=False)
    if result.returncode:
        raise StackError(f"{command[0]} failed; see {log}")


def migrate(database_url: str, log: Path) -> None:
    manage(database_url, log, "migrate", "--no-input")


def collect_static(database_url: str, log: Path) -> None:
    """The site's files as production serves them (``staticfiles/``, named by their content): pages need
    them, as ``make serve-prod`` does."""
    manage(database_url, log, "collectstatic", "--no-input")


# --- the processes -----------------------------------------------------------------------------------


def app_env(*, database_url: str, redis_url: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of an app server or worker: production settings, on loopback, no TLS in front."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "CELERY_", "SECURE_", "WEB_")) and key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="0",
        LOGIN_RATE_LIMIT="false",
        # One account records for every table, far faster than people do: no request limits.
        THROTTLE_ANONYMOUS_READS="off",
        THROTTLE_USER_WRITES="off",
        THROTTLE_TOKEN_REQUESTS="off",
        LOG_LEVEL="WARNING",
        DATABASE_URL=database_url,
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra or {})
    return env


class Process:
    """One subprocess in its own session, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: Mapping[str, str], log: Path):
        self.name, self.argv, self.env, self.log = name, argv, dict(env), log
        self.popen: subprocess.Popen | None = None
        # Where a server answers, set by the function that starts it (gunicorn, Redis, PostgreSQL).
        self.url = ""
        self.port = 0
        self.folder: Path | None = None

    def start(self) -> Process:
        out = self.log.open("ab")
        self.popen = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        return self

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal(self, signum: int) -> None:
        if self.popen is not None and self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signum)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        """SIGKILL the process and its children, as an out-of-memory killer or a pulled plug would."""
        self.signal(signal.SIGKILL)
        if self.popen is not None:
            self.popen.wait(timeout=10)

    def stop(self, timeout: float = 20) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        self.signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        else:
            # Children outliving their parent (a prefork pool) go too.
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_for(self, ready, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running:
                raise StackError(f"{self.name} exited before it was {what}:\n{self.tail()}")
            if ready():
                return
            time.sleep(0.1)
        raise StackError(f"{self.name} was not {what} after {timeout:.0f} s:\n{self.tail()}")


def gunicorn(*, env: Mapping[str, str], log: Path, workers: int | None = None, port: int | None = None) -> Process:
    port = port or free_port()
    extra = {"BIND": f"127.0.0.1:{port}", "WEB_TIMEOUT": "30"}
    if workers:
        extra["WEB_WORKERS"] = str(workers)
    server = Process("gunicorn", [PYTHON, "-m", "gunicorn", "scorekeeper.wsgi", "-c", "gunicorn.conf.py"],
                     {**env, **extra}, log)
    server.url = f"http://127.0.0.1:{port}"
    server.start()

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                return response.status == 200
        except Exception:  # noqa: BLE001 - not up yet
            return False

    server.wait_for(healthy, "answering /healthz", 60)
    return server


def celery_worker(*, env: Mapping[str, str], log: Path, concurrency: int = 2) -> Process:
    worker = Process("celery worker", [PYTHON, "-m", "celery", "-A", "scorekeeper", "worker", "--loglevel=INFO",
                                       f"--concurrency={concurrency}", "--without-gossip", "--without-mingle",
                                       "--hostname", f"load-{secrets.token_hex(3)}@%h"], env, log)
    start = log.stat().st_size if log.exists() else 0
    worker.start()

    def ready() -> bool:
        try:
            with log.open("rb") as out:
                out.seek(start)
                return b" ready." in out.read()
        except OSError:
            return False

    worker.wait_for(ready, "ready", 60)
    return worker


def redis_server(*, log: Path, port: int | None = None) -> Process:
    """A private Redis, so a test may stop it without touching the shared one."""
    port = port or free_port()
    server = Process("redis-server", ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                                      "--appendonly", "no", "--protected-mode", "no"], {**os.environ}, log)
    server.url = f"redis://127.0.0.1:{port}/0"
    server.port = port
    server.start()
    server.wait_for(lambda: redis_ping(server.url), "answering PING", 20)
    return server


def postgres_bin_dir() -> Path | None:
    """Where PostgreSQL's server programs are (``initdb``, ``postgres``), or None if it is not installed."""
    candidates = []
    try:
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=False)
        if found.returncode == 0:
            candidates.append(Path(found.stdout.strip()))
    except OSError:
        pass
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0, reverse=True)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def postgres_server(*, folder: Path, port: int | None = None) -> Process:
    """A private, throwaway PostgreSQL on loopback, its data in ``folder`` (removed by ``stop``).

    Tuned for measuring CPU rather than the disk (``fsync=off``): for benchmarks and tests only.
    PostgreSQL refuses to run as root, so as root it runs as the ``postgres`` user.
    """
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        raise StackError("PostgreSQL is not installed (no initdb found; on Debian: apt-get install postgresql)")
    port = port or free_port()
    data = folder / "data"
    data.mkdir(parents=True)
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        for reachable in (folder.parent, folder):  # the postgres user must reach its data folder
            reachable.chmod(0o755)
        shutil.chown(data, "postgres")
    log = folder / "postgres.log"
    done = subprocess.run([*as_user, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                           "--no-sync"], capture_output=True, text=True, timeout=120, check=False)
    if done.returncode:
        raise StackError(f"initdb failed: {done.stderr[-1000:]}")
    server = Process("postgres", [*as_user, str(bin_dir / "postgres"), "-D", str(data), "-h", "127.0.0.1",
                                  "-p", str(port), "-k", str(data), "-c", "fsync=off", "-c", "synchronous_commit=off",
                                  "-c", "full_page_writes=off", "-c", "max_connections=100"], {**os.environ}, log)
    server.url = f"postgres://postgres@127.0.0.1:{port}/postgres"
    server.folder = folder
    server.start()
    server.wait_for(lambda: Postgres(server.url).reachable(), "accepting connections", 60)
    return server


def stop_postgres(server: Process) -> None:
    """A fast shutdown (SIGINT: roll back what is open, then stop), and its data folder removed."""
    server.signal(signal.SIGINT)
    if server.popen is not None:
        try:
            server.popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    if server.folder is not None:
        shutil.rmtree(server.folder, ignore_errors=True)


def redis_ping(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping())
    except Exception:  # noqa: BLE001
        return False


def redis_flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5).flushdb()


def work_dir(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))

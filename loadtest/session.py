"""A run of scenarios: one migrated template and a work folder, shared by the scenarios it runs."""

from __future__ import annotations

from . import stack as services
from .restart import database_restart
from .scenarios import SCENARIOS as FAULTS
from .scenarios import Outcome, Size, Stack, Template

# Every scenario by name: the load and faults of ``scenarios``, and those of the modules built on it.
SCENARIOS = {**FAULTS, "restart": database_restart}


class Session:
    """One migrated template and a work folder for logs, shared by the scenarios of a run.

    With ``private_redis`` every stack has a Redis server of its own (as the Redis fault always does), so
    sessions in other processes may run stacks at the same time (the test run's parallel processes);
    otherwise stacks use a database of the shared Redis, one stack at a time.
    """

    # Celery's queue lives in this Redis database, apart from the app's and the tests' (db 0): a worker takes
    # whatever is queued in its own.
    REDIS_DB = "7"

    def __init__(self, *, database_url: str, redis_url: str | None, private_redis: bool = False):
        self.postgres = services.Postgres(database_url)
        self.redis_url = services.with_path(redis_url, self.REDIS_DB) if redis_url else None
        self.private_redis = private_redis
        self.workdir = services.work_dir("scorekeeper-load-")
        self.template = Template(self.postgres, self.workdir)

    def stack(self, name: str, *, private_redis: bool = False, **options) -> Stack:
        return Stack(postgres=self.postgres, template=self.template, redis_url=self.redis_url,
                     workdir=self.workdir, name=name, private_redis=private_redis or self.private_redis, **options)

    def run(self, name: str, size: Size) -> Outcome:
        return SCENARIOS[name](self.stack, size)

    def close(self) -> None:
        self.template.drop()

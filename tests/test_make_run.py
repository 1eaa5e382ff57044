"""`make run` serves on the port asked for (``PORT=``), 8000 by default."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def planned(*arguments: str) -> str:
    """What `make run` would do, without doing it (make's dry run)."""
    return subprocess.run(["make", "--dry-run", "run", *arguments], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize(("arguments", "address"), [((), "127.0.0.1:8000"), (("PORT=8001",), "127.0.0.1:8001")])
def test_make_run_serves_on_the_port_asked_for(arguments, address):
    assert f"manage.py runserver {address}\n" in planned(*arguments)

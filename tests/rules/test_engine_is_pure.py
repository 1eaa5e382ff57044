"""The rules engine imports only the standard library, so every door scores with the same code."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import games.rules

ENGINE = Path(games.rules.__file__).parent


def imported_top_level_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library():
    offenders = {}
    for path in ENGINE.rglob("*.py"):
        outside = {name for name in imported_top_level_modules(path) if name not in sys.stdlib_module_names}
        if outside:
            offenders[path.name] = sorted(outside)
    assert offenders == {}


def test_the_checker_would_catch_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from django.db import models\nimport json\n")
    assert imported_top_level_modules(sample) - set(sys.stdlib_module_names) == {"django"}

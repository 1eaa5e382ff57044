"""The rules engine and the movements beside it import only the standard library (and each other), so
every door scores, and seats a club night, with the same code."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import games.movements
import games.rules

PURE_PACKAGES = {"games.rules": Path(games.rules.__file__).parent,
                 "games.movements": Path(games.movements.__file__).parent}


def imported_modules(path: Path) -> set[str]:
    """The absolute names of the modules a file imports (relative imports stay inside its package)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def outside_imports(path: Path) -> set[str]:
    """What a file imports that is neither the standard library nor one of the pure packages."""
    return {
        name
        for name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not any(name == pure or name.startswith(pure + ".") for pure in PURE_PACKAGES)
    }


def test_engine_and_movements_import_only_the_standard_library_and_each_other():
    offenders = {}
    for package, folder in PURE_PACKAGES.items():
        for path in folder.rglob("*.py"):
            outside = outside_imports(path)
            if outside:
                offenders[f"{package}/{path.name}"] = sorted(outside)
    assert offenders == {}


def test_the_checker_would_catch_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from django.db import models\nimport json\nfrom games.rules.errors import shown\n")
    assert outside_imports(sample) == {"django.db"}


def test_the_checker_would_catch_an_import_of_the_django_app(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from games.models import Game\nimport games.movements.seating\n")
    assert outside_imports(sample) == {"games.models"}

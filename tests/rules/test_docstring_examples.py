"""The examples in the engine's docstrings run, so they cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.rules

MODULES = ["games.rules"] + [f"games.rules.{info.name}" for info in pkgutil.iter_modules(games.rules.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0

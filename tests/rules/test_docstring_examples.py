"""The examples in the docstrings of the engine and the movements run, so they cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.movements
import games.rules

MODULES = [
    f"{package.__name__}.{info.name}" if info else package.__name__
    for package in (games.rules, games.movements)
    for info in [None, *pkgutil.iter_modules(package.__path__)]
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0

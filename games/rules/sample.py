"""Helpers for each game's sampler of plausible hands (``Ruleset.sample_hand``).

A sampled hand is valid under the game's default options whatever the score (no nils, no
doubles, no steals), so a game can be played to its end by feeding them in; demo data,
property tests and benchmarks use them through :func:`games.rules.random_hand`.
"""

from __future__ import annotations

import random
from itertools import pairwise


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` shared at random among ``parts``."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in pairwise([0, *cuts, total])]

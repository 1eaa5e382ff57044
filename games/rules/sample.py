"""Plausible random hands for each game: demo data, property tests and benchmarks.

Every hand made here is valid under the default options (no nils, no doubles, no steals),
so a game can be played to its end by feeding them in.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import PARTNERSHIPS, SEATS


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` shared at random among ``parts``."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def spades_hand(rng: random.Random) -> dict:
    tricks = split(rng, 13, 4)
    # Players bid close to what they take, a little under more often than over.
    bids = [max(1, min(13, t - rng.choice((0, 0, 1, 1, -1)))) for t in tricks]
    return {"bids": dict(zip(SEATS, bids, strict=True)), "tricks": dict(zip(SEATS, tricks, strict=True))}


def smudge_hand(rng: random.Random) -> dict:
    return {
        "bidder": rng.choice(SEATS),
        "bid": rng.choice((2, 2, 3, 3, 4)),
        "high": rng.choice(PARTNERSHIPS),
        "low": rng.choice(PARTNERSHIPS),
        "jack": rng.choice((*PARTNERSHIPS, None)),
        "game": rng.choice((*PARTNERSHIPS, PARTNERSHIPS[0], PARTNERSHIPS[1], None)),
        "all_tricks": False,
    }


def trumps_hand(rng: random.Random) -> dict:
    bid = rng.randint(1, 9)
    return {
        "declarer": rng.choice(SEATS),
        "bid": bid,
        "trump": rng.choice(("clubs", "diamonds", "hearts", "spades", "notrump")),
        "doubled": False,
        "redoubled": False,
        "tricks": max(0, min(13, bid + rng.randint(-2, 2))),
    }


def thieving_stink_hand(rng: random.Random) -> dict:
    size = rng.randint(4, 9)
    won = rng.randint(16 - size, 16)
    ns = rng.randint(0, won)
    return {"face_cards": {"NS": ns, "EW": won - ns}, "trump_stack": {"holder": rng.choice(SEATS), "size": size}}


SAMPLERS: dict[str, Callable[[random.Random], dict]] = {
    "spades": spades_hand,
    "smudge": smudge_hand,
    "trumps": trumps_hand,
    "thieving_stink": thieving_stink_hand,
}


def random_hand(game_type: str, rng: random.Random) -> dict:
    return SAMPLERS[game_type](rng)

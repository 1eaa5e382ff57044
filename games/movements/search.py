"""The search that finds the base rounds of the cyclic movements, and the command that writes them down.

A base round over a group (see :mod:`games.movements.cyclic`) is a set of tables; shifting it by every
element of the group gives the cycle. Two players partner (or oppose) over the cycle as often as the
base round holds partners (opponents) at their difference: so a cycle in which no one partners twice
and everyone meets everyone as an opponent at most twice is a base round whose partner pairs use every
difference orbit at most once and whose opponent pairs use every orbit at most twice. For a whist
design (4k and 4k+1 players) both hold exactly.

The search places one table at a time (the smallest unseated number first, its partner, then the
opposing pair), keeping those counts within bounds, in an order shuffled by a seeded random number
generator, and gives up on an attempt after a fixed number of steps: the next seed tries another
order. The seeds that succeeded are kept with the base rounds, so regenerating them is quick:

    python -m games.movements.search            # writes games/movements/design_data.py
    python -m games.movements.search --check    # regenerates and compares, changing nothing

Whist designs of 4k+1 players where 4k+1 is prime are not searched: they follow from a primitive
root (:func:`games.movements.designs.prime_whist`).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from . import design_data
from .cyclic import BaseRound, Group, group, is_prime

# Steps an attempt may take before the next seed is tried.
ATTEMPT_STEPS = 3000
# Every count of players the stored designs cover.
PLAYER_COUNTS = range(4, 42)
DATA_MODULE = Path(__file__).with_name("design_data.py")


# The multipliers used for the largest whist designs (6*6 = 36 = 1 mod 35, 25*25 = 625 = 1 mod 39).
MULTIPLIERS = {35: 6, 39: 25}


class GaveUp(Exception):
    """An attempt ran out of steps."""


@dataclass(frozen=True)
class Recipe:
    """What to search for: the group, who sits out of the base round, and whether a fixed player plays."""

    moduli: tuple[int, ...]
    sitting_out: tuple[int, ...] = ()
    fixed_player: bool = False
    # Every pair should meet as opponents at least this often over the cycle (tried in order).
    least_opposed: tuple[int, ...] = (2,)
    # A unit m of Z_v with m*m = 1 (not 1 or -1) to look only at base rounds that multiplying by m
    # maps to themselves: each table comes with its image, which halves the depth of the search.
    multiplier: int | None = None


def recipe(players: int) -> Recipe | None:
    """How the base round for ``players`` is searched for, or ``None`` when it is not searched.

    - 4k: a whist design on Z_(4k-1) plus a fixed player, who partners 0 in the base round (for 36
      and 40 players, one that multiplying by 6 or 25 leaves as it is: see ``Recipe.multiplier``).
    - 4k+1 (not prime): a whist design on Z_(4k+1) (Z_3 x Z_3 for 9), 0 sitting out.
    - 4k+3: Z_(4k+3) with 0, 1 and 2 sitting out; every pair meets at least once as opponents if
      that can be had, else at most twice.
    - 10: Z_10 with 0 and 1 sitting out. Other counts 4k+2 are made from the whist design of one fewer.
    """
    if players % 4 == 0:
        return Recipe((players - 1,), fixed_player=True, multiplier=MULTIPLIERS.get(players - 1))
    if players % 4 == 1:
        if is_prime(players):
            return None
        return Recipe((3, 3) if players == 9 else (players,), sitting_out=(0,))
    if players % 4 == 3:
        return Recipe((players,), sitting_out=(0, 1, 2), least_opposed=(1, 0))
    if players == 10:
        return Recipe((10,), sitting_out=(0, 1), least_opposed=(1, 0))
    return None


class Attempt:
    """One seeded depth-first search for a base round."""

    def __init__(self, g: Group, recipe: Recipe, least_opposed: int, seed: int):
        self.g = g
        self.recipe = recipe
        self.least_opposed = least_opposed
        self.random = random.Random(seed)
        self.steps = 0
        orbits = range(g.orbit_count)
        # A pair at a self-inverse difference recurs twice in the cycle: never partners, opposes once.
        self.partner_room = [0 if o in g.self_inverse or o == 0 else 1 for o in orbits]
        self.opponent_room = [1 if o in g.self_inverse else 0 if o == 0 else 2 for o in orbits]
        self.partnered = [0] * g.orbit_count
        self.opposed = [0] * g.orbit_count
        self.free = [True] * g.order
        for player in recipe.sitting_out:
            self.free[player] = False
        self.tables: list[tuple[int, int, int, int]] = []

    def run(self) -> tuple[tuple[int, int, int, int], ...] | None:
        """The base round's tables, ``None`` if there is none, or :class:`GaveUp`."""
        if self.recipe.fixed_player:
            self.free[0] = False
            found = self.seat_opponents(self.g.order, 0)
        else:
            found = self.seat_next()
        return tuple(self.tables) if found else None

    def finished(self) -> bool:
        return all(
            count >= min(self.least_opposed, room)
            for count, room in zip(self.opposed[1:], self.opponent_room[1:], strict=True)
        )

    def seat_next(self) -> bool:
        self.steps += 1
        if self.steps > ATTEMPT_STEPS:
            raise GaveUp
        unseated = [player for player in range(self.g.order) if self.free[player]]
        if not unseated:
            return self.finished()
        first = unseated[0]
        orbit = self.g.orbit_of[first]
        partners = [p for p in unseated[1:] if self.partnered[orbit[p]] < self.partner_room[orbit[p]]]
        self.random.shuffle(partners)
        for partner in partners:
            self.free[first] = self.free[partner] = False
            self.partnered[orbit[partner]] += 1
            if self.seat_opponents(first, partner):
                return True
            self.partnered[orbit[partner]] -= 1
            self.free[first] = self.free[partner] = True
        return False

    def against(self, player: int, first: int, partner: int) -> list[int]:
        """The orbits in which ``player`` opposes ``first`` and ``partner`` (the fixed player has none)."""
        orbits = [self.g.orbit_of[partner][player]]
        if first != self.g.order:
            orbits.append(self.g.orbit_of[first][player])
        return orbits

    def fits(self, orbits: list[int]) -> bool:
        for orbit in orbits:
            self.opposed[orbit] += 1
        if all(self.opposed[orbit] <= self.opponent_room[orbit] for orbit in orbits):
            return True
        self.unfit(orbits)
        return False

    def unfit(self, orbits: list[int]) -> None:
        for orbit in orbits:
            self.opposed[orbit] -= 1

    def with_image(self, table: tuple[int, int, int, int]) -> bool:
        """Go on with ``table``'s image under the multiplier seated too (if there is a multiplier)."""
        factor = self.recipe.multiplier
        if not factor:
            return self.seat_next()
        order = self.g.order
        image = tuple(x if x == order else x * factor % order for x in table)
        if set(image) == set(table):
            partners = {frozenset(table[0::2]), frozenset(table[1::2])}
            return {frozenset(image[0::2]), frozenset(image[1::2])} == partners and self.seat_next()
        if not all(self.free[x] for x in image):
            return False
        north, east, south, west = image
        partner_orbits = [self.g.orbit_of[north][south], self.g.orbit_of[east][west]]
        opponent_orbits = [self.g.orbit_of[a][b] for a in (north, south) for b in (east, west)]
        for orbit in partner_orbits:
            self.partnered[orbit] += 1
        for orbit in opponent_orbits:
            self.opposed[orbit] += 1
        fits = all(self.partnered[o] <= self.partner_room[o] for o in partner_orbits) and all(
            self.opposed[o] <= self.opponent_room[o] for o in opponent_orbits
        )
        found = False
        if fits:
            for x in image:
                self.free[x] = False
            self.tables.append(image)  # type: ignore[arg-type]
            found = self.seat_next()
            if not found:
                self.tables.pop()
                for x in image:
                    self.free[x] = True
        if not found:
            for orbit in partner_orbits:
                self.partnered[orbit] -= 1
            for orbit in opponent_orbits:
                self.opposed[orbit] -= 1
        return found

    def seat_opponents(self, first: int, partner: int) -> bool:
        candidates = [player for player in range(self.g.order) if self.free[player]]
        self.random.shuffle(candidates)
        for index, east in enumerate(candidates):
            east_orbits = self.against(east, first, partner)
            if not self.fits(east_orbits):
                continue
            self.free[east] = False
            wests = candidates[index + 1 :]
            if first == self.g.order and self.recipe.multiplier:
                # The fixed player's table must be its own image: the opponents swap places.
                wests = [w for w in wests if w == east * self.recipe.multiplier % self.g.order]
            for west in wests:
                pair_orbit = self.g.orbit_of[east][west]
                if not self.free[west] or self.partnered[pair_orbit] >= self.partner_room[pair_orbit]:
                    continue
                west_orbits = self.against(west, first, partner)
                if not self.fits(west_orbits):
                    continue
                self.free[west] = False
                self.partnered[pair_orbit] += 1
                self.tables.append((first, east, partner, west))
                if self.with_image(self.tables[-1]):
                    return True
                self.tables.pop()
                self.partnered[pair_orbit] -= 1
                self.free[west] = True
                self.unfit(west_orbits)
            self.free[east] = True
            self.unfit(east_orbits)
        return False


def find_base_round(players: int, *, first_seed: int = 0, last_seed: int = 100_000) -> BaseRound | None:
    """The base round for ``players`` from the first seed (from ``first_seed``) whose attempt succeeds."""
    how = recipe(players)
    if how is None:
        return None
    g = group(*how.moduli)
    for least_opposed in how.least_opposed:
        for seed in range(first_seed, last_seed):
            try:
                tables = Attempt(g, how, least_opposed, seed).run()
            except GaveUp:
                continue
            if tables is None:
                break  # the whole search ended without running out of steps: there is none
            return BaseRound(how.moduli, tables, how.sitting_out, seed)
    return None


def data_module_text(designs: dict[int, BaseRound]) -> str:
    lines = [
        '"""Base rounds of the cyclic movements, found by ``python -m games.movements.search``. Do not edit."""',
        "",
        "from .cyclic import BaseRound",
        "",
        "BASE_ROUNDS: dict[int, BaseRound] = {",
    ]
    for players, base in sorted(designs.items()):
        lines.append(
            f"    {players}: BaseRound({base.moduli!r}, {base.tables!r}, {base.sitting_out!r}, seed={base.seed}),"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def regenerate(stored: dict[int, BaseRound] | None = None, *, report=None) -> dict[int, BaseRound]:
    """Every searched base round, starting each search at the seed ``stored`` has for it (else 0).

    ``report``, if given, is called with each count of players and what was found for it.
    """
    designs = {}
    for players in PLAYER_COUNTS:
        known = stored.get(players) if stored else None
        first_seed = (known.seed or 0) if known else 0
        base = find_base_round(players, first_seed=first_seed)
        if base is not None:
            designs[players] = base
        if report is not None:
            report(players, base)
    return designs


def print_progress(players: int, base: BaseRound | None) -> None:
    found = "not searched" if base is None else f"seed {base.seed}"
    print(f"{players} players: {found}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.movements.search", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="regenerate and compare; change nothing")
    parser.add_argument(
        "--from-scratch", action="store_true", help="search every seed from 0, not from the stored ones"
    )
    args = parser.parse_args(argv)
    stored = None if args.from_scratch else design_data.BASE_ROUNDS
    text = data_module_text(regenerate(stored, report=print_progress))
    if args.check:
        same = text == DATA_MODULE.read_text()
        print("design_data.py is up to date" if same else "design_data.py differs from what the search finds")
        return 0 if same else 1
    DATA_MODULE.write_text(text)
    print(f"wrote {DATA_MODULE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The small abelian groups cyclic movements are built over: Z_v, and Z_3 x Z_3 for nine players.

A cyclic movement numbers its players by the elements of a group (plus, sometimes, one fixed player
written ``INFINITY``) and makes round ``g`` by adding ``g`` to every number of a base round. Two
players a and b then meet, over the rounds, exactly as often as the base round holds pairs at the
difference a - b or b - a: the pair's *orbit*. That is what the designs are built from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .seating import Round, Table


@dataclass(frozen=True)
class Group:
    """Z_m1 x Z_m2 x ..., its elements numbered 0..order-1 (the first coordinate varies fastest)."""

    moduli: tuple[int, ...]
    order: int = field(init=False)
    sums: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    negatives: tuple[int, ...] = field(init=False, repr=False)
    # orbit_of[a][b]: the number of the orbit {a - b, b - a}; orbit 0 is {0}.
    orbit_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    orbit_count: int = field(init=False)
    # The orbits of a single element d = -d (even orders only): a pair at that difference recurs in
    # two rounds of the cycle instead of one.
    self_inverse: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        order = 1
        for modulus in self.moduli:
            order *= modulus
        coordinates = [self._coordinates(element) for element in range(order)]
        number = {coords: element for element, coords in enumerate(coordinates)}

        def combine(a: tuple[int, ...], b: tuple[int, ...], sign: int) -> int:
            return number[tuple((x + sign * y) % m for x, y, m in zip(a, b, self.moduli, strict=True))]

        zero = coordinates[0]
        sums = tuple(tuple(combine(a, b, 1) for b in coordinates) for a in coordinates)
        negatives = tuple(combine(zero, a, -1) for a in coordinates)
        orbit_number: dict[int, int] = {}
        for element in range(order):
            if element not in orbit_number:
                orbit_number[element] = orbit_number[negatives[element]] = len(set(orbit_number.values()))
        orbit_of = tuple(
            tuple(orbit_number[combine(a, b, -1)] for b in coordinates) for a in coordinates
        )
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "sums", sums)
        object.__setattr__(self, "negatives", negatives)
        object.__setattr__(self, "orbit_of", orbit_of)
        object.__setattr__(self, "orbit_count", len(set(orbit_number.values())))
        object.__setattr__(
            self,
            "self_inverse",
            frozenset(orbit_number[e] for e in range(1, order) if negatives[e] == e),
        )

    def _coordinates(self, element: int) -> tuple[int, ...]:
        coords = []
        for modulus in self.moduli:
            element, coordinate = divmod(element, modulus)
            coords.append(coordinate)
        return tuple(coords)

    def add(self, a: int, b: int) -> int:
        return self.sums[a][b]


def is_prime(number: int) -> bool:
    return number > 1 and all(number % divisor for divisor in range(2, int(number**0.5) + 1))


@cache
def group(*moduli: int) -> Group:
    """The group Z_m1 x Z_m2 x ... (built once per process).

    >>> g = group(7)
    >>> g.add(5, 4), g.orbit_count, g.orbit_of[1][6]
    (2, 4, 2)
    """
    return Group(tuple(moduli))


@dataclass(frozen=True)
class BaseRound:
    """The first round of a cyclic movement; the others are its shifts.

    Its players are the elements of ``group(*moduli)`` and, when the tables hold the number
    ``order`` (one past the last element), a fixed player who keeps that number in every round.
    ``seed`` is the search attempt that found it (``None`` when it was built by a formula).
    """

    moduli: tuple[int, ...]
    tables: tuple[tuple[int, int, int, int], ...]
    sitting_out: tuple[int, ...] = ()
    seed: int | None = None

    @property
    def group(self) -> Group:
        return group(*self.moduli)

    @property
    def players(self) -> int:
        return 4 * len(self.tables) + len(self.sitting_out)

    def shifted(self, shift: int) -> Round[int]:
        """The round made by adding ``shift`` to every player's number (the fixed player stays)."""
        g = self.group

        def move(player: int) -> int:
            return player if player == g.order else g.add(player, shift)

        return Round(
            tuple(Table(*(move(player) for player in table)) for table in self.tables),
            tuple(move(player) for player in self.sitting_out),
        )

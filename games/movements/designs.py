"""Full cycles of individual movements, one per count of players, built from cyclic base rounds.

Every design here is a cycle of rounds in which no two players partner twice, everyone sits out
equally often (or, for 4k+2 players, all but two: see below), and sit-outs are dealt in turn, so that
no one sits out again before everyone else has sat out as often. By count of players:

- **4k+1** (5, 9, 13, ...): a whist design, 4k+1 rounds, one player sitting out each round: everyone
  partners everyone else exactly once and meets everyone else exactly twice as an opponent. For a
  prime count it follows from a primitive root x: the first round's tables are
  (x^i, x^(i+k), x^(i+2k), x^(i+3k)) for i < k, seated N, E, S, W (so x^i partners -x^i), and round r
  adds r to every number, the sit-out included. Other counts (9, 21, 25, 33) use a searched first
  round (:mod:`games.movements.search`); 9 is cyclic over Z_3 x Z_3, as Z_9 has none.
- **4k** (4, 8, 12, ...): a whist design, 4k-1 rounds, nobody sitting out: players 0..4k-2 shift as
  above and player 4k-1 keeps their number (a searched first round).
- **4k+3** (7, 11, 15, ...): 4k+3 rounds over Z_(4k+3), three players sitting out each round (0, 1
  and 2 in the first, a searched first round). Everyone sits out three times and partners 4k others
  once each; every two players meet as opponents once or twice (for 7 players: at most twice).
- **4k+2** (6, 14, 18, ...): the whist design for 4k+1 players (cyclic on Z_(4k+1)) and one more
  player, who takes player 1's seat while 1 sits out with 0; shifted, that makes 4k+1 rounds with
  two players sitting out. In one round the newcomer sits out instead and the round is the whist
  design's own. Nobody partners twice, and every two players meet as opponents once or twice; the
  newcomer and player 0 sit out once, the others twice. 10 players (whose whist design is not on Z_9)
  use a searched cycle on Z_10 instead: ten rounds, everyone sitting out twice.

The rounds of a cycle are ordered so that the players sitting out are dealt around in turn: round t
is the shift by s*t (s players sitting out; plus t*s // n when s divides n, which moves each pass
on by one). Players are numbered by where round 1 seats them: table 1's N, E, S and W are 0-3,
table 2's 4-7, and so on, those sitting out last.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from math import gcd

from .cyclic import BaseRound, group, is_prime
from .design_data import BASE_ROUNDS
from .seating import Round, Table


@dataclass(frozen=True)
class Design:
    """One full cycle of an individual movement for ``players`` players, numbered 0..players-1."""

    players: int
    rounds: tuple[Round[int], ...]
    # How the cycle is built, in words (for the docs and the director).
    description: str

    @property
    def sit_outs_even(self) -> bool:
        """Whether everyone sits out equally often over the cycle, so that playing it again stays fair."""
        counts = Counter(player for round_ in self.rounds for player in round_.sitting_out)
        return len(set(counts.values())) <= 1 and (not counts or len(counts) == self.players)


def primitive_root(prime: int) -> int:
    factors = {d for d in range(2, prime) if (prime - 1) % d == 0 and is_prime(d)}
    return next(x for x in range(2, prime) if all(pow(x, (prime - 1) // f, prime) != 1 for f in factors))


def prime_whist(prime: int) -> BaseRound:
    """The first round of the cyclic whist design for a prime number of players 4k+1.

    >>> prime_whist(13).tables
    ((1, 8, 12, 5), (2, 3, 11, 10), (4, 6, 9, 7))
    """
    k = (prime - 1) // 4
    x = primitive_root(prime)
    tables = tuple(tuple(pow(x, i + j * k, prime) for j in range(4)) for i in range(k))
    return BaseRound((prime,), tables, (0,))  # type: ignore[arg-type]


def whist_base(players: int) -> BaseRound | None:
    """The first round of a whist design for ``players`` (4k or 4k+1), if there is one here."""
    if players % 4 == 1 and is_prime(players):
        return prime_whist(players)
    if players % 4 in (0, 1):
        return BASE_ROUNDS.get(players)
    return None


def multiplied(base: BaseRound, factor: int) -> BaseRound:
    """``base`` with every number multiplied by ``factor`` (a unit of Z_v): another design of the same kind."""
    (v,) = base.moduli
    return BaseRound(
        base.moduli,
        tuple(tuple(x * factor % v for x in table) for table in base.tables),  # type: ignore[misc]
        tuple(x * factor % v for x in base.sitting_out),
        base.seed,
    )


def dealt_shift(t: int, sitting: int, order: int) -> int:
    """The shift of round t (from 0) that deals ``sitting`` sit-outs a round around the players in turn."""
    return (sitting * t + (sitting * t // order if order % sitting == 0 else 0)) % order


def numbered_by_first_round(rounds: list[Round[int]]) -> tuple[Round[int], ...]:
    number = {player: index for index, player in enumerate(rounds[0].players)}
    return tuple(
        Round(
            tuple(Table(*(number[p] for p in table.players)) for table in round_.tables),
            tuple(number[p] for p in round_.sitting_out),
        )
        for round_ in rounds
    )


def whist_design(players: int, base: BaseRound) -> Design:
    g = base.group
    rounds = [base.shifted(shift) for shift in range(g.order)]
    if players % 4 == 0:
        how = f"whist design: cyclic on Z_{g.order} and one player who keeps their place"
    elif len(base.moduli) > 1:
        how = "whist design: cyclic on " + " x ".join(f"Z_{m}" for m in base.moduli)
    elif base.seed is None:
        how = f"whist design: cyclic on Z_{g.order}, from a primitive root"
    else:
        how = f"whist design: cyclic on Z_{g.order}"
    return Design(players, numbered_by_first_round(rounds), how)


def sitting_out_cycle(players: int, base: BaseRound) -> Design:
    sitting = len(base.sitting_out)
    rounds = [base.shifted(dealt_shift(t, sitting, players)) for t in range(players)]
    return Design(players, numbered_by_first_round(rounds), f"cyclic on Z_{players}, {sitting} sitting out")


def whist_and_one(players: int, whist: BaseRound) -> Design | None:
    """4k+2 players: the cyclic whist design for 4k+1 and a newcomer in player 1's seat (see above)."""
    v = players - 1
    g = group(v)
    for unit in range(1, v):
        if gcd(unit, v) != 1:
            continue
        # The design in which ``unit`` is numbered 1 (multiplying by a unit keeps it a whist design).
        base = multiplied(whist, pow(unit, -1, v))
        table = next(t for t in base.tables if 1 in t)
        seat = table.index(1)
        opponents = (table[(seat + 1) % 4], table[(seat + 3) % 4])
        if g.orbit_of[1][opponents[0]] == g.orbit_of[1][opponents[1]]:
            # Both of the meetings player 1 hands the newcomer would be at one difference: pairs at
            # that difference would never meet as opponents.
            continue
        newcomer = BaseRound(
            base.moduli,
            tuple(tuple(v if x == 1 else x for x in t) for t in base.tables),  # type: ignore[misc]
            (0, 1),
        )
        rounds = []
        for t in range(v):
            shift = dealt_shift(t, 2, v)
            if shift == v - 1:
                # Instead of player 0 (1 shifted by -1), the newcomer sits out: the whist round itself.
                whist_round = base.shifted(shift)
                rounds.append(Round(whist_round.tables, (*whist_round.sitting_out, v)))
            else:
                rounds.append(newcomer.shifted(shift))
        how = f"the whist design for {v} (cyclic on Z_{v}) and one more player, two sitting out"
        return Design(players, numbered_by_first_round(rounds), how)
    return None


@cache
def design(players: int) -> Design | None:
    """The full cycle for ``players`` players, or ``None`` where there is none here (then the planner plans)."""
    if players < 4:
        return None
    whist = whist_base(players)
    if whist is not None:
        return whist_design(players, whist)
    if players % 4 == 2 and players in BASE_ROUNDS:
        return sitting_out_cycle(players, BASE_ROUNDS[players])
    if players % 4 == 2:
        smaller = whist_base(players - 1)
        if smaller is not None and len(smaller.moduli) == 1:
            return whist_and_one(players, smaller)
        return None
    if players % 4 == 3 and players in BASE_ROUNDS:
        return sitting_out_cycle(players, BASE_ROUNDS[players])
    return None

"""The next round of an individual movement from who is here and what has been played so far.

Used whenever the night leaves its full cycle: a late arrival, an early leaver, a substitute, a count
of players with no design here, or a night longer than a cycle whose sit-outs were uneven. It looks
at one round at a time:

1. **Who sits out.** The players present who have sat out least so far; among those, the ones who
   have played most (so a late arrival plays at once), then the one whose last sit-out is longest
   ago, then the one listed last. No one present sits out again before everyone present has sat out
   as often (rounds missed by being absent do not count as sitting out).
2. **The tables.** A seating of the others that keeps partners new first and opponents new second:
   each partnership costs 2c+1 for a pair who have partnered c times already (the growth of the sum
   of squares of partner counts), each opponent meeting likewise, and partnerships outweigh any
   number of opponent meetings. A local search swaps two players at a time while that lowers the
   cost, then tries a few random shakes of the seating from a seeded generator, keeping the best.

Everything is decided by the players' order and the history, so the same input gives the same round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic

from .seating import P, Round, Table, Tally, pair_key

# A partnership outweighs every opponent meeting a round can hold.
PARTNER_WEIGHT = 1_000_000
# Random shakes of the seating tried after the first local optimum, and up to how many while the
# best seating still repeats a partnership.
SHAKES = 8
MORE_SHAKES = 60


def sitting_out(present: Sequence[P], tally: Tally, count: int) -> list[P]:
    """The ``count`` players present to sit the next round out (see rule 1 above)."""
    last = len(present) - 1

    def turn(indexed: tuple[int, P]) -> tuple[int, int, int, int]:
        index, player = indexed
        return (tally.sat_out[player], -tally.played[player], tally.last_sat_out.get(player, 0), last - index)

    return [player for _, player in sorted(enumerate(present), key=turn)[:count]]


class Seating(Generic[P]):
    """Players in seats 4t..4t+3 (N, E, S, W of table t), and what the seating costs."""

    def __init__(self, players: Sequence[P], tally: Tally):
        self.players = list(players)
        size = len(self.players)
        self.partner_cost = [[0] * size for _ in range(size)]
        self.opponent_cost = [[0] * size for _ in range(size)]
        for i, first in enumerate(self.players):
            for j in range(i + 1, size):
                key = pair_key(first, self.players[j])
                self.partner_cost[i][j] = self.partner_cost[j][i] = PARTNER_WEIGHT * (2 * tally.partnered[key] + 1)
                self.opponent_cost[i][j] = self.opponent_cost[j][i] = 2 * tally.opposed[key] + 1
        self.seat = self.greedy()

    def greedy(self) -> list[int]:
        """A first seating: each table takes the first player left, the cheapest partner, then the cheapest pair against."""
        left = list(range(len(self.players)))
        seat: list[int] = []
        pc, oc = self.partner_cost, self.opponent_cost
        while left:
            north = left.pop(0)
            south = min(left, key=lambda p: pc[north][p])
            left.remove(south)
            best = None
            for i, east in enumerate(left):
                for west in left[i + 1 :]:
                    cost = pc[east][west] + oc[north][east] + oc[north][west] + oc[south][east] + oc[south][west]
                    if best is None or cost < best[0]:
                        best = (cost, east, west)
            assert best is not None
            _, east, west = best
            left.remove(east)
            left.remove(west)
            seat += [north, east, south, west]
        return seat

    def table_cost(self, seat: list[int], table: int) -> int:
        n, e, s, w = seat[4 * table : 4 * table + 4]
        oc = self.opponent_cost
        return self.partner_cost[n][s] + self.partner_cost[e][w] + oc[n][e] + oc[n][w] + oc[s][e] + oc[s][w]

    def cost(self, seat: list[int]) -> int:
        return sum(self.table_cost(seat, table) for table in range(len(seat) // 4))

    def at(self, seat: list[int], position: int, player: int) -> int:
        """What ``player`` would cost in ``position`` with the rest of its table as it is."""
        return (
            self.partner_cost[player][seat[position ^ 2]]
            + self.opponent_cost[player][seat[position ^ 1]]
            + self.opponent_cost[player][seat[position ^ 3]]
        )

    def swap_gain(self, seat: list[int], a: int, b: int) -> int:
        """How much cheaper the seating gets if the players in positions ``a`` and ``b`` change places."""
        if a >> 2 != b >> 2:
            x, y = seat[a], seat[b]
            return self.at(seat, a, x) + self.at(seat, b, y) - self.at(seat, a, y) - self.at(seat, b, x)
        before = self.table_cost(seat, a >> 2)
        seat[a], seat[b] = seat[b], seat[a]
        after = self.table_cost(seat, a >> 2)
        seat[a], seat[b] = seat[b], seat[a]
        return before - after

    def improve(self, seat: list[int]) -> None:
        """Swap players while a swap makes the seating cheaper (partners trading places changes nothing)."""
        pc, oc = self.partner_cost, self.opponent_cost
        size = len(seat)
        improved = True
        while improved:
            improved = False
            for a in range(size):
                # The cost of the player in seat a where they are, and (``here``) the costs of its
                # neighbours' rows, so each candidate swap costs a few lookups (this loop is the planner's time).
                x = seat[a]
                partner, left, right = seat[a ^ 2], seat[a ^ 1], seat[a ^ 3]
                x_here = pc[x][partner] + oc[x][left] + oc[x][right]
                for b in range(a + 1, size):
                    if b >> 2 == a >> 2:
                        if a ^ b != 2 and self.swap_gain(seat, a, b) > 0:
                            seat[a], seat[b] = seat[b], seat[a]
                            improved = True
                            break
                        continue
                    y = seat[b]
                    y_partner, y_left, y_right = seat[b ^ 2], seat[b ^ 1], seat[b ^ 3]
                    pcy, ocy, pcx, ocx = pc[y], oc[y], pc[x], oc[x]
                    gain = (
                        x_here
                        + pcy[y_partner] + ocy[y_left] + ocy[y_right]
                        - pcy[partner] - ocy[left] - ocy[right]
                        - pcx[y_partner] - ocx[y_left] - ocx[y_right]
                    )
                    if gain > 0:
                        seat[a], seat[b] = y, x
                        improved = True
                        break

    def repeats_a_partnership(self, seat: list[int]) -> bool:
        return any(self.partner_cost[seat[p]][seat[p + 2]] > PARTNER_WEIGHT for p in range(0, len(seat), 2) if p % 4 < 2)

    def best(self, rng: random.Random) -> list[int]:
        best = list(self.seat)
        self.improve(best)
        best_cost = self.cost(best)
        size = len(best)
        if size <= 4:
            return best
        shakes = 0
        while shakes < SHAKES or (shakes < MORE_SHAKES and self.repeats_a_partnership(best)):
            shakes += 1
            seat = list(best)
            for _ in range(3):
                a, b = rng.sample(range(size), 2)
                seat[a], seat[b] = seat[b], seat[a]
            self.improve(seat)
            cost = self.cost(seat)
            if cost < best_cost:
                best, best_cost = seat, cost
        return best


def plan_round(present: Sequence[P], history: Sequence[Round[P]]) -> Round[P]:
    """The next round for ``present`` (at least four players, each once) after ``history``."""
    tally = Tally.of(history)
    sitters = sitting_out(present, tally, len(present) % 4)
    playing = [player for player in present if player not in sitters]
    seating = Seating(playing, tally)
    rng = random.Random(len(history) * 1000 + len(present))
    seat = seating.best(rng)
    players = seating.players
    tables = tuple(Table(*(players[seat[position]] for position in range(t, t + 4))) for t in range(0, len(seat), 4))
    return Round(tables, tuple(sitters))

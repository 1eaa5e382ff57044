"""Pairs movements: fixed partnerships, each meeting every other pair once.

A round robin by the circle method: with the pairs in a ring around one fixed place, each round
matches the places across the ring, and the ring turns one place between rounds. With an odd number
of pairs the fixed place is a bye: the pair drawn against it sits the round out, so each pair sits
out once a cycle, in turn. Round 1 matches the pairs in the order given (1 v 2 at table 1, 3 v 4 at
table 2, ...; with an odd number the last pair has the bye). At each table the pair that has sat
North-South less often so far sits North-South (the first listed, if they have sat there as often).

When pairs arrive, leave or change a player during the night, :func:`next_pairs_round` plans from
what has been played: the bye to the pair that has had fewest byes (then played most, then is listed
last), and the others matched so that pairs who have met least meet now, by a local search over the
matchings. The pair that has sat North-South less often sits North-South.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence

from .seating import Movement, MovementError, P, Round, Table, meetings, named, refuse_repeats

Pair = tuple[P, P]
BYE = -1


def pairs_cycle(pairs: int) -> int:
    """Rounds in which every pair meets every other once: one fewer than the pairs, or as many if odd.

    >>> pairs_cycle(6), pairs_cycle(7)
    (5, 7)
    """
    return pairs - 1 if pairs % 2 == 0 else pairs


def check_pairs(pairs: Sequence[Sequence[P]]) -> tuple[Pair[P], ...]:
    checked = []
    for pair in pairs:
        if len(pair) != 2:
            raise MovementError(f"a pair is two players, not {len(pair)}: {', '.join(named(p) for p in pair)}")
        checked.append((pair[0], pair[1]))
    refuse_repeats((player for pair in checked for player in pair), "among the pairs")
    if len(checked) < 2:
        raise MovementError(f"a pairs movement needs at least 2 pairs; {len(checked)} here", field="pairs")
    return tuple(checked)


def ring_places(count: int) -> list[int]:
    """The circle's starting places for ``count`` entries (even): entry ``count - 1`` fixed, the others
    placed so that round 1 matches 0 v 1, 2 v 3, ... and the fixed entry against ``count - 2``."""
    places = [0] * count
    places[0] = count - 1
    places[count - 1] = count - 2
    for i in range(1, count // 2):
        places[i] = 2 * (i - 1)
        places[count - 1 - i] = 2 * (i - 1) + 1
    return places


def pairs_movement(pairs: Sequence[Sequence[P]], rounds: int | None = None) -> Movement[P]:
    """The round robin for ``pairs`` (each two players: North-South or East-West together).

    >>> night = pairs_movement([("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay")])
    >>> [(round_.tables[0].north_south, round_.tables[0].east_west, round_.sitting_out) for round_ in night.rounds]
    [(('Ann', 'Bob'), ('Cid', 'Dee'), ('Eve', 'Fay')), (('Eve', 'Fay'), ('Ann', 'Bob'), ('Cid', 'Dee')), (('Cid', 'Dee'), ('Eve', 'Fay'), ('Ann', 'Bob'))]
    """
    checked = check_pairs(pairs)
    entries: list[int] = list(range(len(checked))) + ([BYE] if len(checked) % 2 else [])
    count = len(entries)
    places = ring_places(count)
    fixed, ring = places[0], places[1:]
    cycle = pairs_cycle(len(checked))
    wanted = cycle if rounds is None else rounds
    if wanted < 0:
        raise MovementError("a night cannot have fewer than no rounds", field="rounds")
    planned = []
    north_south_seats: Counter[int] = Counter()
    for number in range(wanted):
        turn = number % cycle
        circle = [fixed] + ring[-turn:] + ring[:-turn] if turn else [fixed] + ring
        matches = [(entries[circle[i]], entries[circle[count - 1 - i]]) for i in range(count // 2)]
        # Table 1 is the first match across the ring; the fixed place's match comes last.
        matches = matches[1:] + matches[:1]
        tables: list[Table[P]] = []
        sitting: tuple[P, ...] = ()
        for first, second in matches:
            if BYE in (first, second):
                sitting = checked[second if first == BYE else first]
                continue
            # The pair that has sat North-South less often does now (the first listed, if neither has).
            north_south, east_west = (
                (first, second) if north_south_seats[first] <= north_south_seats[second] else (second, first)
            )
            north_south_seats[north_south] += 1
            tables.append(pair_table(checked[north_south], checked[east_west]))
        planned.append(Round(tuple(tables), sitting))
    return Movement(tuple(planned), cycle, "round robin (circle method)")


def pair_table(north_south: Pair[P], east_west: Pair[P]) -> Table[P]:
    return Table(north_south[0], east_west[0], north_south[1], east_west[1])


class PairsTally:
    """Meetings, byes and North-South seats so far, for the pairs present (by their place in the list)."""

    def __init__(self, pairs: Sequence[Pair[P]], history: Sequence[Round[P]]):
        owner: dict[Hashable, int] = {}
        for index, players in enumerate(pairs):
            for player in players:
                owner.setdefault(player, index)

        def which(side: Sequence[P]) -> int | None:
            # A side is a present pair if it shares a player with one (a substitute keeps the pair's history).
            return next((owner[p] for p in side if p in owner), None)

        self.met: Counter[frozenset[int]] = Counter()
        self.byes: Counter[int] = Counter()
        self.played: Counter[int] = Counter()
        self.north_south: Counter[int] = Counter()
        self.last_bye: dict[int, int] = {}
        for number, round_ in enumerate(history, start=1):
            for table in round_.tables:
                ns, ew = which(table.north_south), which(table.east_west)
                for side in (ns, ew):
                    if side is not None:
                        self.played[side] += 1
                if ns is not None:
                    self.north_south[ns] += 1
                if ns is not None and ew is not None:
                    self.met[frozenset((ns, ew))] += 1
            for sitter in {which((player,)) for player in round_.sitting_out}:
                if sitter is not None:
                    self.byes[sitter] += 1
                    self.last_bye[sitter] = number


def next_pairs_round(present: Sequence[Sequence[P]], history: Sequence[Round[P]] = ()) -> Round[P]:
    """The next round for the pairs ``present`` after ``history`` (as played).

    While the pairs are those of round 1 and every round went as planned (table numbers aside), it is
    the round robin's next round (for the pairs in the order given, or in the order round 1 matched
    them); otherwise it is planned from the history (see above).

    >>> pairs = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal")]
    >>> first = next_pairs_round(pairs)
    >>> late = next_pairs_round(pairs + [("Ida", "Jo")], [first])
    >>> late.sitting_out
    ('Gus', 'Hal')
    """
    checked = check_pairs(present)
    orders = [checked]
    if history:
        first = history[0]
        as_matched = [side for table in first.tables for side in table.partnerships()]
        if first.sitting_out:
            as_matched.append((first.sitting_out[0], first.sitting_out[-1]))
        if {frozenset(pair) for pair in as_matched} == {frozenset(pair) for pair in checked}:
            orders.append(tuple(as_matched))
    for order in orders:
        night = pairs_movement(order, len(history) + 1)
        if all(meetings(played) == meetings(planned) for played, planned in zip(history, night.rounds, strict=False)):
            return night.rounds[len(history)]
    return plan_pairs_round(checked, history)


def plan_pairs_round(pairs: Sequence[Pair[P]], history: Sequence[Round[P]]) -> Round[P]:
    tally = PairsTally(pairs, history)
    last = len(pairs) - 1
    order = sorted(
        range(len(pairs)),
        key=lambda i: (tally.byes[i], -tally.played[i], tally.last_bye.get(i, 0), last - i),
    )
    bye = order[0] if len(pairs) % 2 else None
    playing = [i for i in range(len(pairs)) if i != bye]
    matches = best_matching(playing, tally, random.Random(len(history) * 1000 + len(pairs)))
    tables = []
    for first, second in sorted((min(m), max(m)) for m in matches):
        north_south, east_west = (
            (first, second) if tally.north_south[first] <= tally.north_south[second] else (second, first)
        )
        tables.append(pair_table(pairs[north_south], pairs[east_west]))
    return Round(tuple(tables), pairs[bye] if bye is not None else ())


def best_matching(playing: list[int], tally: PairsTally, rng: random.Random) -> list[tuple[int, int]]:
    """Pairs matched so that the sum over matches of 2m+1 (m: meetings so far) is as small as found."""

    def cost(match: tuple[int, int]) -> int:
        return 2 * tally.met[frozenset(match)] + 1

    left = list(playing)
    matches = []
    while left:
        first = left.pop(0)
        second = min(left, key=lambda other: cost((first, other)))
        left.remove(second)
        matches.append((first, second))

    def improve(matches: list[tuple[int, int]]) -> None:
        improved = True
        while improved:
            improved = False
            for i in range(len(matches)):
                for j in range(i + 1, len(matches)):
                    (a, b), (c, d) = matches[i], matches[j]
                    now = cost((a, b)) + cost((c, d))
                    for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                        if cost(x) + cost(y) < now:
                            matches[i], matches[j] = x, y
                            improved = True
                            break

    improve(matches)
    best, best_cost = matches, sum(map(cost, matches))
    for _ in range(8 if len(matches) > 2 else 0):
        shaken = list(best)
        i, j = rng.sample(range(len(shaken)), 2)
        (a, b), (c, d) = shaken[i], shaken[j]
        shaken[i], shaken[j] = (a, c), (b, d)
        improve(shaken)
        shaken_cost = sum(map(cost, shaken))
        if shaken_cost < best_cost:
            best, best_cost = shaken, shaken_cost
    return best

"""Individual movements: partners change every round.

Two ways in, one answer:

- :func:`individual_movement` plans a whole night for the players given: the full cycle of the
  design for their count (:mod:`games.movements.designs`), or, where there is none, rounds from the
  planner (:mod:`games.movements.planner`).
- :func:`next_individual_round` plans one round at a time from who is here now and the rounds played
  so far. While attendance is what it was in round 1 and every round went as planned (table numbers
  aside), it is the movement's next round; once someone has arrived, left or been substituted, the
  planner takes over and balances sit-outs, partners and opponents over the whole night so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from .designs import design
from .planner import plan_round
from .seating import Movement, MovementError, P, Round, Table, meetings, refuse_repeats

SMALLEST = 4


def individual_cycle(players: int) -> int:
    """Rounds in a full cycle for ``players``: everyone could partner everyone else once in that many.

    >>> individual_cycle(8), individual_cycle(9), individual_cycle(10), individual_cycle(11)
    (7, 9, 10, 11)
    """
    found = design(players)
    if found is not None:
        return len(found.rounds)
    return players - 1 if players % 2 == 0 else players


def check_present(players: Sequence[P]) -> None:
    refuse_repeats(players, "among the players")
    if len(players) < SMALLEST:
        raise MovementError(
            f"an individual movement needs at least {SMALLEST} players; {len(players)} "
            f"{'is' if len(players) == 1 else 'are'} here",
            field="players",
        )


def individual_movement(players: Sequence[P], rounds: int | None = None) -> Movement[P]:
    """The night for ``players`` (in check-in order: round 1 seats them in that order), ``rounds`` long.

    Without ``rounds``, one full cycle. Past the end of a cycle the cycle is played again if everyone
    sat out equally often in it, and otherwise the planner continues.

    >>> night = individual_movement(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"])
    >>> len(night.rounds), night.rounds[0].tables[0]
    (7, Table(north='Ann', east='Bob', south='Cid', west='Dee'))
    """
    players = tuple(players)
    check_present(players)
    found = design(len(players))
    cycle = individual_cycle(len(players))
    wanted = cycle if rounds is None else rounds
    if wanted < 0:
        raise MovementError("a night cannot have fewer than no rounds", field="rounds")
    planned: list[Round[P]] = []
    if found is not None:
        cycle_rounds = [named_round(round_, players) for round_ in found.rounds]
        if found.sit_outs_even:
            planned = [cycle_rounds[number % cycle] for number in range(wanted)]
        else:
            planned = cycle_rounds[:wanted]
    while len(planned) < wanted:
        planned.append(plan_round(players, planned))
    how = found.description if found is not None else "planned round by round"
    return Movement(tuple(planned), cycle, how)


def named_round(round_: Round[int], players: Sequence[P]) -> Round[P]:
    return Round(
        tuple(Table(*(players[number] for number in table.players)) for table in round_.tables),
        tuple(players[number] for number in round_.sitting_out),
    )


def next_individual_round(present: Sequence[P], history: Sequence[Round[P]] = ()) -> Round[P]:
    """The next round for the players ``present``, after the rounds in ``history`` (as played).

    ``present`` is everyone who will play or sit out the next round, in check-in order; ``history`` is
    every round so far, with any substitute in the seat they took (see
    :func:`games.movements.seating.substitute`). Players who left are simply not in ``present``; a
    late arrival is in ``present`` and in no round of ``history``.

    >>> players = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]
    >>> first = next_individual_round(players)
    >>> first.sitting_out
    ('Ida',)
    >>> next_individual_round(players, [first]) == individual_movement(players).rounds[1]
    True
    """
    present = tuple(present)
    check_present(present)
    continued = planned_round(present, history)
    if continued is not None:
        return continued
    return plan_round(present, history)


def planned_round(present: tuple[P, ...], history: Sequence[Round[P]]) -> Round[P] | None:
    """The movement's next round, if attendance and every round so far went as the movement planned.

    The movement is the one for ``present`` in its order, or in the order round 1 seated them (so the
    caller's order of the players may change during the night without losing the design).
    """
    orders = [present]
    if history and set(history[0].players) == set(present) and history[0].players != present:
        orders.append(history[0].players)
    for order in orders:
        found = design(len(order))
        if found is None:
            return None
        if len(history) >= len(found.rounds) and not found.sit_outs_even:
            # The planner continues such a night anyway; no need to compare the rounds.
            return None
        night = individual_movement(order, len(history) + 1)
        if all(meetings(played) == meetings(planned) for played, planned in zip(history, night.rounds, strict=False)):
            return night.rounds[len(history)]
    return None

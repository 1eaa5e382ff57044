"""Club-night movements: who sits where, with whom and against whom, round after round.

Plain Python, standard library only (like the rules engine beside it), and deterministic: the same
players and history always give the same rounds. Players are whatever the caller uses (names, ids),
given in a fixed order, e.g. check-in order.

Individual movements (partners change every round):

>>> from games.movements import individual_movement, next_individual_round
>>> night = individual_movement(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"])
>>> len(night.rounds), night.cycle, night.description
(9, 9, 'whist design: cyclic on Z_3 x Z_3')
>>> second = night.rounds[1]
>>> table = second.table_of("Gus")
>>> second.table_number("Gus"), table.seat_of("Gus"), table.partner_of("Gus"), table.opponents_of("Gus")
(2, 'E', 'Bob', ('Dee', 'Hal'))
>>> second.sitting_out
('Ann',)

Pairs movements (fixed partnerships, a round robin): :func:`pairs_movement`, :func:`next_pairs_round`.

A night whose attendance changes is planned round by round: :func:`next_individual_round` and
:func:`next_pairs_round` take who is here now and the rounds played so far (with any substitute in
the seat they took: :func:`substitute`). docs/club-night.md explains the movements and gives their
figures per count of players (``python -m games.movements --figures``).
"""

from __future__ import annotations

from .individual import individual_cycle, individual_movement, next_individual_round
from .pairs import next_pairs_round, pairs_cycle, pairs_movement
from .seating import SEATS, Movement, MovementError, Round, Table, substitute

__all__ = [
    "SEATS",
    "Movement",
    "MovementError",
    "Round",
    "Table",
    "individual_cycle",
    "individual_movement",
    "next_individual_round",
    "next_pairs_round",
    "pairs_cycle",
    "pairs_movement",
    "substitute",
]

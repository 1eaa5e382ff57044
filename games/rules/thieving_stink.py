"""Thieving Stink: face cards won in tricks and the trump stack.

The rules and the project's rulings on them: docs/rules/thieving_stink.md.

Each face card (J, Q, K, A) won in a trick is worth 10 to its side; the side in control of the
trump at the end of the hand scores 5 for every card in the trump stack. The stack starts with
the four bid cards and gains one card per change of trump, so it holds 4 to 16 cards, and the
face cards that are not in it were won in tricks. It starts in front of the player whose bid card
was highest, who leads first, and moves only to a player who changes trump: a stack of four is
still in front of the lead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .base import (
    PARTNERSHIPS,
    SEATS,
    GameState,
    HandScore,
    Option,
    Ruleset,
    ScoredHand,
    require_choice,
    require_int,
)
from .errors import InvalidHand
from .explaining import Explanation, Needs, Part, Term, added, plural, seat_name
from .reporting import Rate

FACE_CARDS = 16  # J, Q, K and A of four suits
STACK_MIN, STACK_MAX = 4, 16  # the four bid cards, plus at most one per trick for a change of trump
FACE_CARD_POINTS = 10
STACK_CARD_POINTS = 5
# The rules version from which a stack of four held by anyone but the lead is refused.
UNCHANGED_STACK_CHECKED_FROM = 3


class ThievingStink(Ruleset):
    """Thieving Stink.

    >>> rules = ThievingStink({})
    >>> dict(rules.replay([{"face_cards": {"NS": 6, "EW": 7},
    ...                     "trump_stack": {"holder": "E", "size": 7}}]).totals)
    {'NS': 60, 'EW': 105}
    """

    game_type = "thieving_stink"
    name = "Thieving Stink"
    figure_counts = ("stack_holds", "stack_cards")
    figures_read_record = False  # the details name the stack's holder and its size
    figure_rates = (
        Rate("stack_hold_rate", "Held the trump stack", "stack_holds", "hands"),
        Rate("average_stack", "Average stack held", "stack_cards", "stack_holds", average=True, unit=" cards",
             digits=2),
    )
    option_specs = (
        Option("target", "int", 500, "Points a side needs to win, counted at the end of a hand.", minimum=1),
    )
    record_fields = {"face_cards": True, "trump_stack": True, "lead": False}
    record_example = {"face_cards": {"NS": 9, "EW": 5}, "trump_stack": {"holder": "W", "size": 6}, "lead": "N"}

    def check_record(self, number: int, record: Mapping[str, Any], state: GameState, dealer: str) -> None:
        face_cards = record["face_cards"]
        if not isinstance(face_cards, Mapping) or set(face_cards) != set(PARTNERSHIPS):
            raise InvalidHand(number, "face_cards needs a count for NS and for EW", field="face_cards")
        for side in PARTNERSHIPS:
            require_int(number, face_cards[side], f"face_cards.{side}", 0, FACE_CARDS)

        stack = record["trump_stack"]
        if not isinstance(stack, Mapping) or set(stack) != {"holder", "size"}:
            raise InvalidHand(number, "trump_stack needs a holder (a seat) and a size", field="trump_stack")
        holder = require_choice(number, stack["holder"], "trump_stack.holder", SEATS)
        size = require_int(number, stack["size"], "trump_stack.size", STACK_MIN, STACK_MAX)

        won = face_cards["NS"] + face_cards["EW"]
        if won > FACE_CARDS:
            raise InvalidHand(
                number,
                f"face cards add up to {won}; there are only {FACE_CARDS} in the deck",
                field="face_cards",
            )
        if won < FACE_CARDS - size:
            raise InvalidHand(
                number,
                f"face cards add up to {won}, but a stack of {size} can hold at most {size} of the other "
                f"{FACE_CARDS - won}; at least {FACE_CARDS - size} must have been won in tricks",
                field="face_cards",
            )
        if "lead" in record:
            lead = require_choice(number, record["lead"], "lead", SEATS)
            # The bid cards make the stack, in front of the lead; every change of trump adds a card and moves
            # the stack to whoever changed it. Four cards: nobody changed trump, so it never moved.
            if size == STACK_MIN and holder != lead and self.rules_version >= UNCHANGED_STACK_CHECKED_FROM:
                raise InvalidHand(
                    number,
                    f"a stack of {STACK_MIN} means nobody changed trump, so it is still in front of {lead}, "
                    f"who won the bid and led first; it can't be held by {holder}",
                    field="trump_stack.holder",
                )

    def score(self, record: Mapping[str, Any], state: GameState, dealer: str) -> HandScore:
        holder_side = self.side_of(record["trump_stack"]["holder"])
        size = record["trump_stack"]["size"]
        delta = {side: FACE_CARD_POINTS * record["face_cards"][side] for side in PARTNERSHIPS}
        delta[holder_side] += STACK_CARD_POINTS * size
        return HandScore(
            delta=delta,
            details={
                "trump_stack_holder": record["trump_stack"]["holder"],
                "trump_stack_side": holder_side,
                "trump_stack_size": size,
            },
        )

    def winner(self, totals, record, state, scored) -> str | None:
        return self.highest_at_target(totals)

    def explain(self, hand: ScoredHand, names: Mapping[str, str] | None = None) -> Explanation:
        """The face cards each side won and who held the trump stack, then each side's sum.

        "Face cards NS 6, EW 7, trump stack of 7 held by Bob (E); NS score 60 for 6 face cards; EW score
        70 for 7 face cards + 35 for the stack of 7 = 105".
        """
        face_cards, holder = hand.record["face_cards"], hand.details["trump_stack_holder"]
        size, holders = hand.details["trump_stack_size"], hand.details["trump_stack_side"]
        opening = (f"Face cards NS {face_cards['NS']}, EW {face_cards['EW']}, trump stack of {size} held by "
                   f"{seat_name(names, holder)}" + (f" ({holder})" if seat_name(names, holder) != holder else ""))
        parts = [Part(opening)]
        for side in PARTNERSHIPS:
            terms = []
            if face_cards[side]:
                terms.append(Term("face_cards", FACE_CARD_POINTS * face_cards[side],
                                  plural(face_cards[side], "face card")))
            if side == holders:
                terms.append(Term("trump_stack", STACK_CARD_POINTS * size, f"the stack of {size}"))
            text = f"{side} score " + (added((term.points, f"for {term.words}") for term in terms) if terms
                                       else "0, with no face cards")
            parts.append(Part(text, side=side, points=hand.delta[side], terms=tuple(terms)))
        return Explanation(tuple(parts))

    def needs(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """Points to the target; past it and level, play goes on. "NS need 120 to reach 500"."""
        return Needs(tuple(self.needs_to_reach_target(state, names)))

    def figures(self, record: Mapping[str, Any], details: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The player holding the trump stack at the end of the hand, and its size."""
        return {details["trump_stack_holder"]: {"stack_holds": 1, "stack_cards": details["trump_stack_size"]}}

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        size = rng.randint(STACK_MIN, 9)
        won = rng.randint(FACE_CARDS - size, FACE_CARDS)
        ns = rng.randint(0, won)
        return {"face_cards": {"NS": ns, "EW": won - ns}, "trump_stack": {"holder": rng.choice(SEATS), "size": size}}

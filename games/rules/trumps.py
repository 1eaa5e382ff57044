"""Trumps: a cross between Spades and Bridge, scored on one contract per hand.

The rules and the project's rulings on them: docs/rules/trumps.md.

The highest number bid names the contract: the declaring partnership needs at least that many
tricks. Made, it scores the bid's value (a no trump contract counts as one bid higher, and 13 no
trump is worth 150) plus 1 per overtrick. Set, the defenders score 5 per trick short. A double
doubles the hand's result and a redouble quadruples it (with ``double_scope: contract_only``,
the value and the set penalty but not the overtricks). Exactly one side scores on any hand, and
the first side to reach the target (50) wins. Matches of three games are in :mod:`.trumps_match`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .base import (
    SEATS,
    GameState,
    HandScore,
    Option,
    Ruleset,
    ScoredHand,
    other_side,
    require_bool,
    require_choice,
    require_int,
)
from .errors import InvalidHand
from .explaining import Explanation, Needs, Part, Term, plural, seat_name
from .reporting import Rate
from .trumps_match import MATCH_TIEBREAK, TARGET, match_result, match_seatings

TRICKS = 13
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
NOTRUMP = "notrump"
TRUMP_CHOICES: tuple[str, ...] = (*SUITS, NOTRUMP)

# The rule text's table (docs/rules/trumps.md): a contract of this many tricks is worth this much when made.
BID_VALUES: Mapping[int, int] = {
    1: 1, 2: 1, 3: 1,
    4: 2, 5: 2, 6: 2,
    7: 5, 8: 10, 9: 15, 10: 20, 11: 30, 12: 50, 13: 100,
}
# "Or 150 points for a bid of 13 with no trumps": there is no bid of 14 to borrow a value from.
GRAND_NOTRUMP_VALUE = 150
SET_POINTS_PER_TRICK = 5


def contract_value(bid: int, notrump: bool) -> int:
    """What a made contract is worth before overtricks and doubling.

    A no trump contract scores as if the bid were one higher; 13 no trump scores 150.

    >>> contract_value(7, False), contract_value(7, True), contract_value(13, True)
    (5, 10, 150)
    """
    if not notrump:
        return BID_VALUES[bid]
    return GRAND_NOTRUMP_VALUE if bid == TRICKS else BID_VALUES[bid + 1]


class Trumps(Ruleset):
    """Trumps.

    >>> rules = Trumps({})
    >>> state = rules.replay([{"declarer": "N", "bid": 7, "trump": "hearts",
    ...                        "doubled": False, "redoubled": False, "tricks": 8}])
    >>> dict(state.totals)
    {'NS': 6, 'EW': 0}
    """

    game_type = "trumps"
    name = "Trumps"
    figure_counts = ("contracts", "contracts_made", "doubled_contracts", "doubled_made")
    figure_rates = (
        Rate("contract_success", "Contracts made", "contracts_made", "contracts"),
        Rate("doubled_success", "Doubled contracts made", "doubled_made", "doubled_contracts"),
    )
    # Three games with partners rotating, so that everyone partners everyone once (``trumps_match``).
    match_games = 3
    option_specs = (
        TARGET,
        Option(
            "double_scope",
            "choice",
            "all",
            "What a double or redouble multiplies: the whole result of the hand (all), "
            "or the contract's value and the set penalty but not the overtricks (contract_only).",
            choices=("all", "contract_only"),
        ),
        MATCH_TIEBREAK,
    )
    record_fields = {
        "declarer": True,
        "bid": True,
        "trump": True,
        "doubled": True,
        "redoubled": True,
        "tricks": True,
    }
    record_example = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False,
                      "tricks": 8}

    def check_record(self, number: int, record: Mapping[str, Any], state: GameState, dealer: str) -> None:
        require_choice(number, record["declarer"], "declarer", SEATS)
        require_int(number, record["bid"], "bid", 1, TRICKS)
        require_choice(number, record["trump"], "trump", TRUMP_CHOICES)
        doubled = require_bool(number, record["doubled"], "doubled")
        redoubled = require_bool(number, record["redoubled"], "redoubled")
        if redoubled and not doubled:
            raise InvalidHand(number, "a hand can only be redoubled after a double", field="redoubled")
        require_int(number, record["tricks"], "tricks", 0, TRICKS)

    def score(self, record: Mapping[str, Any], state: GameState, dealer: str) -> HandScore:
        declaring_side = self.side_of(record["declarer"])
        bid, tricks = record["bid"], record["tricks"]
        notrump = record["trump"] == NOTRUMP
        value = contract_value(bid, notrump)
        multiplier = 4 if record["redoubled"] else 2 if record["doubled"] else 1
        # A double always raises the stake on the contract: its value if made, the penalty if set.
        # Under "contract_only" the overtricks stay at face value.
        overtrick_multiplier = multiplier if self.options["double_scope"] == "all" else 1

        made = tricks >= bid
        overtricks = tricks - bid if made else 0
        short = 0 if made else bid - tricks
        if made:
            scoring_side = declaring_side
            points = value * multiplier + overtricks * overtrick_multiplier
        else:
            scoring_side = other_side(declaring_side)
            points = SET_POINTS_PER_TRICK * short * multiplier
        return HandScore(
            delta={scoring_side: points},
            details={
                "declaring_side": declaring_side,
                "contract_value": value,
                "made": made,
                "overtricks": overtricks,
                "short": short,
                "multiplier": multiplier,
                "doubled": record["doubled"],
                "redoubled": record["redoubled"],
                "notrump": notrump,
            },
        )

    def winner(self, totals, record, state, scored) -> str | None:
        # Only one side scores on a hand, and it always scores something, so the first side to
        # reach the target is the side that just scored: there can be no tie.
        reached = [side for side in self.sides if totals[side] >= self.target and scored.delta.get(side, 0)]
        if reached:
            return reached[0]
        return self.highest_at_target(totals)

    # --- in words ---------------------------------------------------------------------------------

    def explain(self, hand: ScoredHand, names: Mapping[str, str] | None = None) -> Explanation:
        """The contract and the tricks, then what the side that scores gets and why.

        "NS bid 7 hearts (Ann), doubled, and took 8; NS score (5 + 1 overtrick) × 2 = 12". No trump's
        higher value, a double or redouble (and what ``double_scope`` lets it multiply) and a set's
        penalty each show in the sum.
        """
        record, details = hand.record, hand.details
        declarers, bid = details["declaring_side"], record["bid"]
        multiplier, value, overtricks = details["multiplier"], details["contract_value"], details["overtricks"]
        trump = "no trump" if details["notrump"] else record["trump"]
        doubling = "redoubled" if details["redoubled"] else "doubled" if details["doubled"] else ""
        opening = (f"{declarers} bid {bid} {trump} ({seat_name(names, record['declarer'])})"
                   f"{f', {doubling},' if doubling else ''} and took {record['tricks']}")
        times = f" × {multiplier}" if doubling else ""

        if not details["made"]:
            defenders, short = other_side(declarers), details["short"]
            points = SET_POINTS_PER_TRICK * short * multiplier
            text = (f"{declarers} were {plural(short, 'trick')} short: {defenders} score "
                    f"{short} × {SET_POINTS_PER_TRICK}{times} = {points}")
            return Explanation((Part(opening), Part(text, side=defenders, points=points, terms=(
                Term("set", points, f"{plural(short, 'trick')} short"),))))

        worth = str(value)
        overtrick_multiplier = multiplier if self.options["double_scope"] == "all" else 1
        terms = [Term("contract", value * multiplier, f"the bid of {bid} {trump}")]
        plus = ""
        if overtricks:
            terms.append(Term("overtricks", overtricks * overtrick_multiplier, plural(overtricks, "overtrick")))
            plus = f" + {plural(overtricks, 'overtrick')}"
        if doubling and overtricks and overtrick_multiplier > 1:
            arithmetic = f"({worth}{plus}){times}"  # double_scope: all
        else:
            arithmetic = f"{worth}{times}{plus}"
        points = sum(term.points for term in terms)
        if doubling or overtricks:
            arithmetic += f" = {points}"
        notes = []
        if details["notrump"]:
            notes.append(f"{bid} no trump is worth {value}" + ("" if bid == TRICKS else f", as a bid of {bid + 1}"))
        if doubling and overtricks and overtrick_multiplier == 1:
            notes.append(f"overtricks are not {doubling}")
        if notes:
            arithmetic += f" ({'; '.join(notes)})"
        return Explanation((Part(opening), Part(f"{declarers} score {arithmetic}", side=declarers, points=points,
                                                terms=tuple(terms))))

    def needs(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """Points to the target: the first side to reach it wins. "NS need 12 to reach 50"."""
        return Needs(tuple(self.needs_to_reach_target(state, names)))

    # --- figures, samples and matches --------------------------------------------------------------

    def figures(self, record: Mapping[str, Any], details: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The declarer's contract, made or set, and whether it was doubled (or redoubled)."""
        made, doubled = details["made"], details["multiplier"] > 1
        return {record["declarer"]: {"contracts": 1, "contracts_made": int(made),
                                     "doubled_contracts": int(doubled), "doubled_made": int(doubled and made)}}

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        bid = rng.randint(1, 9)
        return {
            "declarer": rng.choice(SEATS),
            "bid": bid,
            "trump": rng.choice(TRUMP_CHOICES),
            "doubled": False,
            "redoubled": False,
            "tricks": max(0, min(TRICKS, bid + rng.randint(-2, 2))),
        }

    def match_seatings(self, seats: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        return match_seatings(seats, self.options["first_dealer"])

    def match_result(self, seatings: Sequence[Mapping[str, Any]], game_totals: Sequence[Mapping[str, int]]) -> Any:
        return match_result(seatings, game_totals, self.options)

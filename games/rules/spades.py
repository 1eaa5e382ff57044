"""Spades: each side contracts for tricks, with nil bids and bags.

The rules and the project's rulings on them: ``docs/rules/spades.md``.

A side's contract is the sum of its partners' trick bids. Made (the side took at least that
many tricks): 10 per trick bid and 1 per overtrick, and every overtrick is a bag; ten bags
cost 100 points. Set: minus 10 per trick bid. A nil bidder promises to take no trick: +50
if so, else -50 (blind nil, bid before looking at the cards: +100 / -100). Without
partnerships every seat bids and scores alone by the same rules.
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
    require_int,
    sole_highest,
)
from .errors import InvalidHand, shown
from .explaining import Explanation, Need, Needs, Part, Term, added, number, plural, possessive, seat_name
from .reporting import Extra, Rate
from .sample import split

TRICKS = 13
NIL, BLIND_NIL = "nil", "blind_nil"
TRICK_POINTS = 10  # per trick bid, won when the contract is made and lost when it is set


def bid_is_nil(bid: Any) -> bool:
    """A bid of 0 is a nil bid (docs/rules/spades.md, ruling 1)."""
    return bid in (0, NIL, BLIND_NIL) and not isinstance(bid, bool)


class Spades(Ruleset):
    """Spades, for two partnerships (``NS``, ``EW``) or, with ``partnerships: false``, four players alone.

    A hand record gives every seat's bid (0..13, ``"nil"`` or ``"blind_nil"``; 0 is nil) and the
    tricks it took (adding up to 13). The extras hold ``bags`` per side after every hand.

    ``details`` of a scored hand:

    - ``sides``: per side ``{"contract", "tricks", "made", "overtricks", "bags", "bag_penalty"}``:
      the tricks bid by its non-nil bidders, the tricks counted toward that contract, whether it
      was made (a contract of 0, bid only by nils, counts as made), the tricks scored as
      overtricks (including a failed nil's tricks scored as bags), the bags gained this hand and
      the points lost to bags this hand.
    - ``nils``: one ``{"seat", "blind", "made"}`` per nil bid, in seat order.
    - ``bids_made``: per seat, ``True`` when its bid was made: a trick bid when its side's
      contract was made, a nil when the nil bidder took no trick.

    Examples from docs/rules/spades.md: contract 7 taking 9 tricks scores 72 and 2 bags; contract 8
    taking 6 scores -80; a nil made beside a partner's 4 made exactly scores 50 + 40.

    >>> rules = Spades({})
    >>> state = rules.replay([{"bids": {"N": "nil", "E": 5, "S": 4, "W": 3},
    ...                        "tricks": {"N": 0, "E": 5, "S": 4, "W": 4}}])
    >>> dict(state.totals), dict(state.extras["bags"])
    ({'NS': 90, 'EW': 81}, {'NS': 0, 'EW': 1})
    """

    game_type = "spades"
    name = "Spades"
    extras_shown = (Extra("bags", "bag", "bags"),)
    figure_counts = ("bids", "bids_made", "nils", "nils_made", "blind_nils", "blind_nils_made", "bags")
    figures_read_record = False  # the details say every bid, nil and bag
    figure_rates = (
        Rate("bid_success", "Bids made", "bids_made", "bids"),
        Rate("nil_success", "Nils made", "nils_made", "nils"),
        Rate("blind_nil_success", "Blind nils made", "blind_nils_made", "blind_nils"),
        Rate("bags_per_hand", "Bags per hand", "bags", "hands", average=True),
    )
    option_specs = (
        Option("target", "int", 500, "Points a side needs to win, counted at the end of a hand.", minimum=1),
        Option("nil_value", "int", 50, "Points won for a nil bid made, and lost for one that fails.", minimum=0),
        Option(
            "blind_nil_value", "int", 100,
            "Points won for a blind nil made, and lost for one that fails.", minimum=0,
        ),
        Option(
            "failed_nil_tricks", "choice", "count",
            "What the tricks of a failed nil bidder do: count toward the partner's bid, score 1 point and a "
            "bag each without counting toward the bid, or nothing.",
            choices=("count", "bags_only", "ignore"),
        ),
        Option(
            "bag_mode", "choice", "cycle",
            "How overtricks score: 1 point and a bag each with a penalty every time a side collects the bag "
            "limit, minus 1 point each with no bags, or 1 point each with no bags.",
            choices=("cycle", "minus_one", "none"),
        ),
        Option("bag_limit", "int", 10, "How many bags a side collects before it pays the bag penalty.", minimum=1),
        Option("bag_penalty", "int", 100, "Points a side loses each time it collects the bag limit.", minimum=1),
        Option("blind_nil_allowed", "bool", True, "Whether a player may bid blind nil at all."),
        Option(
            "blind_nil_deficit", "int", 100,
            "How many points a side must be behind before the hand for one of its players to bid blind nil "
            "(0: at any score).", minimum=0,
        ),
        Option("allow_double_nil", "bool", False, "Whether both partners may bid nil in the same hand."),
        Option(
            "lose_at", "int", None,
            "A score at or below which a side loses: the game then ends at the end of that hand and the "
            "highest score wins (leave empty for no such limit).", nullable=True,
        ),
        Option("partnerships", "bool", True, "Whether partners sitting opposite score together; off, everyone "
               "plays alone."),
    )
    record_fields = {"bids": True, "tricks": True}
    record_example = {"bids": {"N": 3, "E": "nil", "S": 4, "W": 5}, "tricks": {"N": 4, "E": 0, "S": 5, "W": 4}}

    # sides

    @property
    def partnerships(self) -> bool:
        return self.options["partnerships"]

    @property
    def sides(self) -> tuple[str, ...]:
        return super().sides if self.partnerships else SEATS

    def side_of(self, seat: str) -> str:
        return super().side_of(seat) if self.partnerships else seat

    def initial_extras(self) -> dict[str, dict[str, int]]:
        return {"bags": {side: 0 for side in self.sides}}

    # checks

    def check_record(self, number: int, record: Mapping[str, Any], state: GameState, dealer: str) -> None:
        bids = self.check_seats(number, record["bids"], "bids", "a bid")
        nil_bid = False
        for seat in SEATS:
            bid = bids[seat]
            if type(bid) is int and 0 < bid <= TRICKS:
                continue  # the usual case, checked quickly
            nil_bid = True
            if not (bid in (NIL, BLIND_NIL) or (isinstance(bid, int) and not isinstance(bid, bool)
                                                and 0 <= bid <= TRICKS)):
                raise InvalidHand(
                    number,
                    f"bids.{seat} must be a whole number from 0 to {TRICKS}, \"nil\" or \"blind_nil\", not {shown(bid)}",
                    field=f"bids.{seat}",
                )
        tricks = self.check_seats(number, record["tricks"], "tricks", "the tricks taken")
        taken = 0
        for seat in SEATS:
            took = tricks[seat]
            if type(took) is not int or not 0 <= took <= TRICKS:
                require_int(number, took, f"tricks.{seat}", 0, TRICKS)
            taken += took
        if taken != TRICKS:
            raise InvalidHand(
                number,
                f"tricks add up to {taken}; they must add up to {TRICKS}",
                field="tricks",
            )
        if not nil_bid:
            return  # the rules below are about nil bids

        if self.partnerships and not self.options["allow_double_nil"]:
            for first, second in self.seats_by_side.values():
                if bid_is_nil(bids[first]) and bid_is_nil(bids[second]):
                    raise InvalidHand(
                        number,
                        f"{first} and {second} both bid nil; one of the partners must bid at least 1 trick "
                        "(double nil is not allowed in this game)",
                        field="bids",
                    )
        for seat in SEATS:
            if bids[seat] == BLIND_NIL:
                self.check_blind_nil(number, seat, state)

    @staticmethod
    def check_seats(number: int, value: Any, field_name: str, what: str) -> Mapping[str, Any]:
        """A mapping with exactly the four seats, or an :class:`InvalidHand` naming the seat at fault."""
        if type(value) is dict and len(value) == 4 and "N" in value and "E" in value and "S" in value \
                and "W" in value:
            return value  # the usual case, checked quickly
        seats = ", ".join(SEATS)
        if not isinstance(value, Mapping):
            raise InvalidHand(number, f"{field_name} must give {what} for each of {seats}", field=field_name)
        for seat in SEATS:
            if seat not in value:
                raise InvalidHand(
                    number,
                    f"{field_name} has nothing for {seat}; give {what} for each of {seats}",
                    field=field_name,
                )
        for key in value:
            if key not in SEATS:
                raise InvalidHand(
                    number,
                    f"{field_name} has an unknown seat {shown(key)}; seats are {seats}",
                    field=field_name,
                )
        return value

    def check_blind_nil(self, number: int, seat: str, state: GameState) -> None:
        field_name = f"bids.{seat}"
        if not self.partnerships:
            raise InvalidHand(number, "blind nil is not allowed without partnerships", field=field_name)
        if not self.options["blind_nil_allowed"]:
            raise InvalidHand(number, "blind nil is not allowed in this game", field=field_name)
        deficit = self.options["blind_nil_deficit"]
        if deficit == 0:  # ruling: a deficit of 0 allows blind nil at any score, even when ahead
            return
        side = self.side_of(seat)
        behind = state.totals[other_side(side)] - state.totals[side]
        if behind < deficit:
            if behind > 0:
                standing = f"{side} is {behind} behind"
            elif behind == 0:
                standing = "the scores are level"
            else:
                standing = f"{side} is {-behind} ahead"
            raise InvalidHand(
                number,
                f"blind nil needs {side} to be at least {deficit} behind; {standing}",
                field=field_name,
            )

    # scoring

    def score(self, record: Mapping[str, Any], state: GameState, dealer: str) -> HandScore:
        bids, tricks = record["bids"], record["tricks"]
        if self.partnerships:
            north, east, south, west = bids["N"], bids["E"], bids["S"], bids["W"]
            if (type(north) is int and north and type(east) is int and east and type(south) is int and south
                    and type(west) is int and west):
                # The usual hand: two partnerships, four trick bids, no nil. The same rules as below,
                # in fewer steps (each side's seats are N, S and E, W).
                return self.score_trick_bids(north + south, tricks["N"] + tricks["S"], east + west,
                                             tricks["E"] + tricks["W"], state.extras["bags"])
        return self.score_any(bids, tricks, state)

    def score_trick_bids(self, ns_contract: int, ns_tricks: int, ew_contract: int, ew_tricks: int,
                         bags_before: Mapping[str, int]) -> HandScore:
        """A hand of two partnerships where every seat bid tricks: each side's contract and tricks."""
        ns_points, ns_bags, ns_side = self.side_score(ns_contract, ns_tricks, bags_before["NS"])
        ew_points, ew_bags, ew_side = self.side_score(ew_contract, ew_tricks, bags_before["EW"])
        ns_made, ew_made = ns_side["made"], ew_side["made"]
        return HandScore(
            delta={"NS": ns_points, "EW": ew_points},
            extras={"bags": {"NS": ns_bags, "EW": ew_bags}},
            details={"sides": {"NS": ns_side, "EW": ew_side}, "nils": [],
                     "bids_made": {"N": ns_made, "E": ew_made, "S": ns_made, "W": ew_made}},
        )

    def side_score(self, contract: int, counted: int, bags_before: int) -> tuple[int, int, dict[str, Any]]:
        """A side without nil bids: its points, its bags after the hand and its ``details["sides"]`` entry."""
        made = counted >= contract
        if made:
            points = TRICK_POINTS * contract
            overtricks = counted - contract
        else:
            points = -TRICK_POINTS * contract
            overtricks = 0
        bags_gained = penalty = 0
        bags_after = bags_before
        bag_mode = self.options["bag_mode"]
        if bag_mode == "cycle":
            points += overtricks
            bags_gained = overtricks
            bags_after += bags_gained
            bag_limit = self.options["bag_limit"]
            if not 0 <= bags_after < bag_limit:
                cycles, bags_after = divmod(bags_after, bag_limit)
                penalty = cycles * self.options["bag_penalty"]
                points -= penalty
        elif bag_mode == "minus_one":
            points -= overtricks
        else:
            points += overtricks
        return points, bags_after, {"contract": contract, "tricks": counted, "made": made,
                                    "overtricks": overtricks, "bags": bags_gained, "bag_penalty": penalty}

    def score_any(self, bids: Mapping[str, Any], tricks: Mapping[str, int], state: GameState) -> HandScore:
        """Any hand: nil bids, blind nils, or every seat playing alone."""
        options = self.options
        bag_mode, bag_limit, bag_penalty = options["bag_mode"], options["bag_limit"], options["bag_penalty"]
        bags_before = state.extras["bags"]
        delta: dict[str, int] = {}
        bags: dict[str, int] = {}
        sides: dict[str, dict[str, Any]] = {}
        nils: list[dict[str, Any]] = []
        bids_made: dict[str, bool] = {}

        for side, seats in self.seats_by_side.items():
            contract = counted = loose = 0
            nil_seats: Sequence[str] = ()
            bid_seats: Sequence[str] = seats
            for seat in seats:
                bid = bids[seat]
                if (type(bid) is not int or not bid) and bid_is_nil(bid):
                    # A nil at this side: its tricks follow the nil rules (the usual case has none).
                    nil_seats = [seat for seat in seats if bid_is_nil(bids[seat])]
                    bid_seats = [seat for seat in seats if seat not in nil_seats]
                    contract = sum(bids[seat] for seat in bid_seats)
                    counted, loose = self.counted_tricks(bid_seats, nil_seats, tricks)
                    break
                contract += bid
                counted += tricks[seat]

            made = counted >= contract
            points = TRICK_POINTS * contract if made else -TRICK_POINTS * contract
            overtricks = (counted - contract if made else 0) + loose

            bags_gained = penalty = 0
            bags_after = bags_before[side]
            if bag_mode == "cycle":
                points += overtricks
                bags_gained = overtricks
                # Each time the side reaches the limit it pays the penalty and that many bags are
                # removed; the rest carry. Floor division covers several cycles in one hand.
                bags_after += bags_gained
                if not 0 <= bags_after < bag_limit:
                    cycles, bags_after = divmod(bags_after, bag_limit)
                    penalty = cycles * bag_penalty
                    points -= penalty
            elif bag_mode == "minus_one":
                points -= overtricks
            else:
                points += overtricks

            for seat in nil_seats:
                blind = bids[seat] == BLIND_NIL
                value = options["blind_nil_value" if blind else "nil_value"]
                nil_made = tricks[seat] == 0
                points += value if nil_made else -value
                nils.append({"seat": seat, "blind": blind, "made": nil_made})
                bids_made[seat] = nil_made
            for seat in bid_seats:
                bids_made[seat] = made

            delta[side] = points
            bags[side] = bags_after
            sides[side] = {"contract": contract, "tricks": counted, "made": made, "overtricks": overtricks,
                           "bags": bags_gained, "bag_penalty": penalty}

        if len(nils) > 1:
            nils.sort(key=lambda nil: SEATS.index(nil["seat"]))
        return HandScore(
            delta=delta,
            extras={"bags": bags},
            details={"sides": sides, "nils": nils,
                     "bids_made": {"N": bids_made["N"], "E": bids_made["E"], "S": bids_made["S"],
                                   "W": bids_made["W"]}},
        )

    def counted_tricks(
        self, bid_seats: Sequence[str], nil_seats: Sequence[str], tricks: Mapping[str, int]
    ) -> tuple[int, int]:
        """The side's tricks that count toward its contract, and the tricks scored only as overtricks.

        A nil bidder's tricks are only ever the tricks of a failed nil.
        """
        bid_tricks = sum(tricks[seat] for seat in bid_seats)
        if not nil_seats:
            return bid_tricks, 0
        nil_tricks = sum(tricks[seat] for seat in nil_seats)
        mode = self.options["failed_nil_tricks"]
        if not bid_seats:
            # Double nil (docs/rules/spades.md, ruling 6: the side's contract is 0, each nil scores
            # alone, every trick is an overtrick) is the specific rule, so it wins over
            # failed_nil_tricks. Playing alone (ruling 9), a failed nil has no partner to count for:
            # under "count" and "bags_only" each trick is an overtrick.
            if self.partnerships or mode != "ignore":
                return nil_tricks, 0
            return 0, 0
        if mode == "count":
            return bid_tricks + nil_tricks, 0
        if mode == "bags_only":
            return bid_tricks, nil_tricks
        return bid_tricks, 0

    # the end

    def winner(self, totals, record, state, scored) -> str | None:
        """At the end of a hand, once a side reaches the target or falls to ``lose_at``, the sole highest wins."""
        lose_at = self.options["lose_at"]
        if max(totals.values()) >= self.target or (lose_at is not None and min(totals.values()) <= lose_at):
            return sole_highest(totals)
        return None

    # in words

    def explain(self, hand: ScoredHand, names: Mapping[str, str] | None = None) -> Explanation:
        """Each side's bid, its tricks and the sum that makes its score, then its bags.

        "NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 3 in all". Every rule that moved the
        score is a term of the sum: the contract made or set, overtricks (per ``bag_mode``), each nil
        and blind nil, and the bag penalty; failed nil tricks that do not count toward the bid
        (``failed_nil_tricks``) are said beside the tricks.
        """
        nils = {nil["seat"]: nil for nil in hand.details["nils"]}
        return Explanation(tuple(
            self.explain_side(side, seats, hand, nils, names) for side, seats in self.seats_by_side.items()
        ))

    def explain_side(self, side: str, seats: Sequence[str], hand: ScoredHand, nils: Mapping[str, Any],
                     names: Mapping[str, str] | None) -> Part:
        outcome = hand.details["sides"][side]
        contract, made, overtricks = outcome["contract"], outcome["made"], outcome["overtricks"]
        alone = len(seats) == 1
        taken = sum(hand.record["tricks"][seat] for seat in seats)
        nil_seats = [seat for seat in seats if seat in nils]

        terms = []
        if contract:
            terms.append(Term("contract", TRICK_POINTS * contract, f"the bid of {contract}") if made
                         else Term("set", -TRICK_POINTS * contract, f"the bid of {contract}, set"))
        if overtricks:
            sign = -1 if self.options["bag_mode"] == "minus_one" else 1
            terms.append(Term("overtricks", sign * overtricks, plural(overtricks, "overtrick")))
        for seat in nil_seats:
            nil = nils[seat]
            kind = "blind nil" if nil["blind"] else "nil"
            value = self.options["blind_nil_value" if nil["blind"] else "nil_value"]
            whose = "the" if alone else possessive(seat_name(names, seat))
            terms.append(Term(kind.replace(" ", "_"), value if nil["made"] else -value,
                              f"{whose} {kind}" if nil["made"] else f"{whose} failed {kind}"))
        paid = outcome["bag_penalty"] // self.options["bag_penalty"] * self.options["bag_limit"]
        if outcome["bag_penalty"]:
            terms.append(Term("bag_penalty", -outcome["bag_penalty"], plural(paid, "bag")))

        if contract:
            bid = str(contract)
        else:  # only nils: a double nil, or a nil bid alone
            kinds = ["blind nil" if nils[seat]["blind"] else "nil" for seat in nil_seats]
            bid = f"{kinds[0]} twice" if len(kinds) == 2 and kinds[0] == kinds[1] else " and ".join(kinds)
        head = f"{self.who(side, names).name} bid {bid} and took {taken}"
        uncounted = taken - outcome["tricks"]
        if uncounted:  # a failed nil's tricks, under failed_nil_tricks bags_only or ignore
            failed = next(seat for seat in nil_seats if hand.record["tricks"][seat])
            counting = "only as overtricks" if self.options["failed_nil_tricks"] == "bags_only" else "for nothing"
            head += (f" ({uncounted} on {'the' if alone else possessive(seat_name(names, failed))} failed nil "
                     f"count {counting})")
        if contract and not made:
            head += ", set"
        pieces = [(term.points, "" if term.rule in ("contract", "set") else
                   plural(overtricks, "overtrick").split(" ", 1)[1] if term.rule == "overtricks"
                   else f"for {term.words}") for term in terms]
        text = f"{head}: {added(pieces)}"
        if outcome["bags"]:
            left = hand.extras["bags"][side]
            text += f"; {plural(outcome['bags'], 'bag')}, {left + paid} in all"
            if paid:
                text += f": {paid} paid off, {left} left"
        return Part(text, side=side, points=hand.delta[side], terms=tuple(terms))

    def needs(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """Points to the target, bags to the next penalty (under ``bag_mode: cycle``, for a side with
        bags) and, with ``lose_at``, how far the lowest side is above the score that ends the game.

        "EW need 62 to reach 500; NS are 3 bags from a penalty".
        """
        if state.finished:
            return Needs()
        parts = self.needs_to_reach_target(state, names)
        if self.options["bag_mode"] == "cycle":
            limit = self.options["bag_limit"]
            for side in self.side_list:
                if state.extras["bags"][side]:
                    left = limit - state.extras["bags"][side]
                    parts.append(Need("bags", f"{self.who(side, names).verb('are', 'is')} "
                                              f"{plural(left, 'bag')} from a penalty", side=side, amount=left))
        lose_at = self.options["lose_at"]
        if lose_at is not None:  # the side nearest to it
            lowest = min(self.side_list, key=lambda side: state.totals[side])
            above = state.totals[lowest] - lose_at
            if above <= 0:  # the game would have ended there, but for a tie at the top
                if not any(part.what == "level" for part in parts):
                    parts.insert(0, self.level_at_the_top(state, names))
            else:
                parts.append(Need("lose_at", f"{self.who(lowest, names).verb('are', 'is')} {above} above "
                                             f"{number(lose_at)}, where the game ends", side=lowest,
                                  amount=above))
        return Needs(tuple(parts))

    # what the hand adds to each player's figures

    def figures(self, record: Mapping[str, Any], details: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """Per seat: its bid (a trick bid, made when its side's contract was made; or a nil or blind
        nil, made when it took no trick), and the bags its side took (playing alone: its own)."""
        nils = {nil["seat"]: nil for nil in details["nils"]}
        bids_made, sides = details["bids_made"], details["sides"]
        out = {}
        for seat, side in self.side_by_seat.items():
            nil = nils.get(seat)
            kind = "bids" if nil is None else "blind_nils" if nil["blind"] else "nils"
            out[seat] = {kind: 1, f"{kind}_made": int(bids_made[seat]), "bags": sides[side]["bags"]}
        return out

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        tricks = dict(zip(SEATS, split(rng, TRICKS, 4), strict=True))
        # Players bid close to what they take, a little under more often than over; no nils.
        bids = {seat: max(1, min(TRICKS, took - rng.choice((0, 0, 1, 1, -1)))) for seat, took in tricks.items()}
        return {"bids": bids, "tricks": tricks}

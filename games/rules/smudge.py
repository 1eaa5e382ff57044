"""Smudge: bid for High, Low, Jack and Game; smudge is a bid of five that needs every trick.

The rules and the project's rulings on them: docs/rules/smudge.md.

Each of High, Low, Jack and Game is one point to the side that won it. A bidding side that
takes at least its bid in points scores every point it took; otherwise it is set back by the
bid. The defenders always score what they took. A smudge (a bid of five) is made only with all
four points and all six tricks, and then scores 5. A side wins only at the end of a hand in
which it bid and made its bid, with at least the target (21).
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
    is_int,
    other_side,
    require_bool,
    require_choice,
)
from .errors import InvalidHand, shown
from .explaining import Explanation, Need, Needs, Part, Term, number, plural, seat_name
from .reporting import Rate

SMUDGE = 5  # a bid of smudge is really a bid of five
POINTS = ("high", "low", "jack", "game")

# What a side that took all six tricks must also have taken, in the order a player checks them.
ALL_TRICKS_MEANS = {
    "high": "so it held High too (whoever holds the top trump wins the trick it is played to)",
    "low": "so it took Low too",
    "jack": "so it took the Jack too",
    "game": "so it took Game too (every card counted for game was in its tricks)",
}


class Smudge(Ruleset):
    """Smudge.

    >>> rules = Smudge({})
    >>> hand = {"bidder": "N", "bid": 2, "high": "NS", "low": "NS", "jack": "NS", "game": "NS",
    ...         "all_tricks": False}
    >>> dict(rules.replay([hand]).totals)
    {'NS': 4, 'EW': 0}
    """

    game_type = "smudge"
    name = "Smudge"
    figure_counts = ("bids", "bids_made", "smudge_bids", "smudges_made")
    figure_rates = (
        Rate("bid_success", "Bids made", "bids_made", "bids"),
        Rate("smudge_success", "Smudges made", "smudges_made", "smudge_bids"),
    )
    option_specs = (
        Option("target", "int", 21, "Points a side needs to win, counted at the end of a hand.", minimum=1),
        Option(
            "low_goes_to",
            "choice",
            "captured",
            "Who gets Low: the side that captured the lowest trump in a trick, or the side it was dealt to.",
            choices=("captured", "dealt"),
        ),
        Option(
            "win_rule",
            "choice",
            "bidder_must_make",
            "Whether a side can only win on a hand where it bid and made its bid, "
            "or wins as soon as it reaches the target.",
            choices=("bidder_must_make", "first_to_target"),
        ),
        Option(
            "dealer_can_steal",
            "bool",
            True,
            "Whether the dealer, bidding last, may take the bid by bidding the same as the highest bid.",
        ),
        Option(
            "dealer_can_steal_smudge",
            "bool",
            True,
            "Whether the dealer may steal a bid of smudge too (only matters when the dealer can steal).",
        ),
    )
    record_fields = {
        "bidder": True,
        "bid": True,
        "high": True,
        "low": True,
        "jack": True,
        "game": True,
        "all_tricks": True,
        "forced": False,
        "stolen": False,
    }
    record_example = {"bidder": "E", "bid": 3, "high": "EW", "low": "NS", "jack": "EW", "game": None,
                      "all_tricks": False}

    # --- checks ---------------------------------------------------------------------------------

    def check_record(self, number: int, record: Mapping[str, Any], state: GameState, dealer: str) -> None:
        bidder = require_choice(number, record["bidder"], "bidder", SEATS)
        bid = bid_value(number, record["bid"])
        for name, label in (("high", "High"), ("low", "Low")):
            if record[name] is None:
                raise InvalidHand(
                    number,
                    f"{name} can't be empty: the pitched card is a trump, so one side always wins {label}; "
                    f"{name} must be NS or EW",
                    field=name,
                )
            require_choice(number, record[name], name, PARTNERSHIPS)
        # null: the jack of trumps was not dealt, so nobody scores Jack
        require_choice(number, record["jack"], "jack", PARTNERSHIPS, nullable=True)
        # null: the game count was a tie, so nobody scores Game
        require_choice(number, record["game"], "game", PARTNERSHIPS, nullable=True)
        all_tricks = require_bool(number, record["all_tricks"], "all_tricks")
        forced = require_bool(number, record.get("forced", False), "forced")
        stolen = require_bool(number, record.get("stolen", False), "stolen")

        if forced and stolen:
            raise InvalidHand(
                number,
                "a bid can't be both forced and stolen: the dealer is forced to bid only when everyone "
                "else passed, so there was no bid to steal",
                field="stolen",
            )
        if forced and bidder != dealer:
            raise InvalidHand(
                number,
                f"a forced bid is the dealer's: {dealer} dealt this hand, so the bidder must be {dealer}, "
                f"not {bidder}",
                field="bidder",
            )
        if stolen:
            if bidder != dealer:
                raise InvalidHand(
                    number,
                    f"only the dealer can steal the bid: {dealer} dealt this hand, so the bidder must be "
                    f"{dealer}, not {bidder}",
                    field="bidder",
                )
            if not self.options["dealer_can_steal"]:
                raise InvalidHand(
                    number,
                    "this game is played without stealing: the dealer may not take the bid by bidding "
                    "the same as the highest bid",
                    field="stolen",
                )
            if bid == SMUDGE and not self.options["dealer_can_steal_smudge"]:
                raise InvalidHand(
                    number,
                    "in this game the dealer may not steal a smudge: to take the bid over a smudge "
                    "there is nothing higher to bid",
                    field="stolen",
                )

        if all_tricks:
            bidding_side = self.side_of(bidder)
            for point in POINTS:
                if point == "low" and self.options["low_goes_to"] == "dealt":
                    continue  # the lowest trump may have been dealt to the other side and lost to a trick
                if point == "jack" and record["jack"] is None:
                    continue  # not dealt, so nobody took it
                if record[point] != bidding_side:
                    went = "nobody (a tie)" if record[point] is None else record[point]
                    raise InvalidHand(
                        number,
                        f"the bidding side took all six tricks, {ALL_TRICKS_MEANS[point]}; "
                        f"but {point} is recorded for {went}",
                        field="all_tricks",
                    )

    # --- scoring --------------------------------------------------------------------------------

    def score(self, record: Mapping[str, Any], state: GameState, dealer: str) -> HandScore:
        """Each point is 1 to its side; a made bid scores the points taken, a set bid loses the bid.

        A smudge scores 5 only with all four points and all six tricks; bidding 4 and taking
        everything still scores 4.
        """
        bidding_side = self.side_of(record["bidder"])
        defending_side = other_side(bidding_side)
        bid = bid_value(0, record["bid"])
        points = {side: 0 for side in PARTNERSHIPS}
        for point in POINTS:
            if record[point] is not None:
                points[record[point]] += 1

        smudge = bid == SMUDGE
        if smudge:
            made = points[bidding_side] == len(POINTS) and record["all_tricks"]
        else:
            made = points[bidding_side] >= bid
        if made:
            bidding_delta = SMUDGE if smudge else points[bidding_side]
        else:
            bidding_delta = -bid
        delta = {bidding_side: bidding_delta, defending_side: points[defending_side]}
        return HandScore(
            delta=delta,
            details={
                "bidding_side": bidding_side,
                "bid": bid,
                "smudge": smudge,
                "made": made,
                "points": points,
                "forced": record.get("forced", False),
                "stolen": record.get("stolen", False),
            },
        )

    def winner(
        self, totals: Mapping[str, int], record: Mapping[str, Any], state: GameState, scored: HandScore
    ) -> str | None:
        """Under ``bidder_must_make`` only a bidding side that made its bid can win on a hand.

        Under ``first_to_target`` any side at the target wins; if both are, the bidder goes out
        first when it made its bid, otherwise the defenders win.
        """
        bidding_side = scored.details["bidding_side"]
        made = scored.details["made"]
        if self.options["win_rule"] == "bidder_must_make":
            return bidding_side if made and totals[bidding_side] >= self.target else None
        at_target = [side for side in PARTNERSHIPS if totals[side] >= self.target]
        if not at_target:
            return None
        if len(at_target) == 1:
            return at_target[0]
        return bidding_side if made else other_side(bidding_side)

    # --- in words ---------------------------------------------------------------------------------

    def explain(self, hand: ScoredHand, names: Mapping[str, str] | None = None) -> Explanation:
        """The bid and who won each point, then what the bidders and the defenders score.

        "NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW; NS made 2 of 3: set back 3;
        EW score 2". A forced or stolen bid, a Jack not dealt, a tied Game and all six tricks are
        said where they happened; a smudge says why it was made or missed.
        """
        record, details = hand.record, hand.details
        bidders, bid, made = details["bidding_side"], details["bid"], details["made"]
        defenders = other_side(bidders)
        taken = details["points"][bidders]
        how = [seat_name(names, record["bidder"])]
        how += [word for word in ("forced", "stolen") if details.get(word)]
        points = []
        for point in POINTS:
            label = point.capitalize()
            if record[point] is not None:
                points.append(f"{label} to {record[point]}")
            else:
                points.append("no Jack dealt" if point == "jack" else "Game tied")
        if record["all_tricks"]:
            points.append(f"all six tricks to {bidders}")
        opening = f"{bidders} bid {'smudge' if details['smudge'] else bid} ({', '.join(how)}): {', '.join(points)}"

        if details["smudge"] and made:
            bidding = Part(f"{bidders} made the smudge, all four points and all six tricks: score {SMUDGE}",
                           side=bidders, points=SMUDGE, terms=(Term("smudge", SMUDGE, "the smudge"),))
        elif made:
            text = f"{bidders} made the bid with {taken}: score {taken}"
            if record["all_tricks"] and taken == len(POINTS):
                text += f" (all six tricks score {SMUDGE} only on a smudge bid)"
            bidding = Part(text, side=bidders, points=taken,
                           terms=(Term("points", taken, plural(taken, "point")),))
        else:
            if not details["smudge"]:
                why = f"made {taken} of {bid}"
            elif record["jack"] is None:
                why = "missed the smudge (with no Jack dealt it cannot be made)"
            elif taken < len(POINTS):
                why = f"missed the smudge with {taken} of {len(POINTS)} points"
            else:
                why = "missed the smudge without all six tricks"
            bidding = Part(f"{bidders} {why}: set back {bid}", side=bidders, points=-bid,
                           terms=(Term("set", -bid, f"the bid of {bid}, set"),))
        won = details["points"][defenders]
        defending = Part(f"{defenders} score {won}", side=defenders, points=won,
                         terms=(Term("points", won, plural(won, "point")),))
        return Explanation((Part(opening), bidding, defending))

    def needs(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """Points to the target and, under ``bidder_must_make``, that only a bid made wins:
        "NS need 3 more and must make a bid to win". A side already past the target under that rule
        wins by making a bid."""
        if state.finished:
            return Needs()
        parts = []
        for side in PARTNERSHIPS:
            short = self.target - state.totals[side]
            if self.options["win_rule"] == "first_to_target":
                parts.append(Need("target", f"{side} need {short} to reach {self.target}", side=side, amount=short))
            elif short > 0:
                parts.append(Need("target_on_bid", f"{side} need {short} more and must make a bid to win",
                                  side=side, amount=short))
            else:
                parts.append(Need("target_on_bid", f"{side} have {number(state.totals[side])}: making a bid wins",
                                  side=side, amount=0))
        return Needs(tuple(parts))

    # --- figures and samples ---------------------------------------------------------------------

    def figures(self, record: Mapping[str, Any], details: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The bidder's bid, made or set, and whether it was a smudge; nobody else's figures move."""
        made, smudge = details["made"], details["smudge"]
        return {record["bidder"]: {"bids": 1, "bids_made": int(made), "smudge_bids": int(smudge),
                                   "smudges_made": int(smudge and made)}}

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        return {
            "bidder": rng.choice(SEATS),
            "bid": rng.choice((2, 2, 3, 3, 4)),
            "high": rng.choice(PARTNERSHIPS),
            "low": rng.choice(PARTNERSHIPS),
            "jack": rng.choice((*PARTNERSHIPS, None)),
            "game": rng.choice((*PARTNERSHIPS, *PARTNERSHIPS, None)),
            "all_tricks": False,
        }


def bid_value(number: int, value: Any) -> int:
    """The bid as a number: 2, 3 or 4, and 5 for smudge (written ``5`` or ``"smudge"``)."""
    if value == "smudge":
        return SMUDGE
    if is_int(value) and 2 <= value <= SMUDGE:
        return value
    raise InvalidHand(
        number,
        f"bid must be 2, 3, 4, 5 or smudge (a bid of five), not {shown(value)}",
        field="bid",
    )

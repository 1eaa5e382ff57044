"""Per-player figures card players care about, counted hand by hand.

Each hand is read from what the engine reported when it scored it (``Hand.details``), falling
back on the hand record itself where a detail is missing (a hand scored before the engine
reported it), so a missing key never stops the count.

- Spades: ``bids`` and ``bids_made`` (trick bids, made when the side's contract was made),
  ``nils``/``nils_made``, ``blind_nils``/``blind_nils_made``, and ``bags``: the bags the player's
  side took on hands they played (cutthroat: their own).
- Smudge (the bidder only): ``bids``, ``bids_made``, ``smudge_bids``, ``smudges_made``.
- Trumps (the declarer only): ``contracts``, ``contracts_made``, ``doubled_contracts`` (doubled or
  redoubled) and ``doubled_made``.
- Thieving Stink: ``stack_holds`` (hands ending with the player holding the trump stack) and
  ``stack_cards`` (the cards in those stacks).

Every game also counts ``hands`` played. :func:`figure_rates` turns counts into the rates shown.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from games.rules import SEATS

PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
NIL_BIDS = (0, "nil", "blind_nil")

COUNT_NAMES: Mapping[str, tuple[str, ...]] = {
    "spades": ("bids", "bids_made", "nils", "nils_made", "blind_nils", "blind_nils_made", "bags"),
    "smudge": ("bids", "bids_made", "smudge_bids", "smudges_made"),
    "trumps": ("contracts", "contracts_made", "doubled_contracts", "doubled_made"),
    "thieving_stink": ("stack_holds", "stack_cards"),
}


def as_mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def side_of(seat: str, partnerships: bool) -> str:
    if not partnerships:
        return seat
    return "NS" if seat in ("N", "S") else "EW"


def is_nil(bid: Any) -> bool:
    return not isinstance(bid, bool) and bid in NIL_BIDS


# --- per game: {seat: Counter} for one hand ----------------------------------------------------------


def spades_hand(record: Mapping[str, Any], details: Mapping[str, Any], partnerships: bool) -> dict[str, Counter]:
    bids, tricks = as_mapping(record.get("bids")), as_mapping(record.get("tricks"))
    bids_made = as_mapping(details.get("bids_made"))
    sides = as_mapping(details.get("sides"))
    nils = {nil.get("seat"): nil for nil in details.get("nils", ()) if isinstance(nil, Mapping)}
    out: dict[str, Counter] = {}
    for seat in SEATS:
        counts: Counter = Counter()
        side = side_of(seat, partnerships)
        seats_of_side = (seat, PARTNER[seat]) if partnerships else (seat,)
        bid = bids.get(seat)
        if is_nil(bid):
            nil = as_mapping(nils.get(seat))
            blind = nil.get("blind", bid == "blind_nil")
            made = nil.get("made", bids_made.get(seat, as_int(tricks.get(seat), 1) == 0))
            prefix = "blind_nils" if blind else "nils"
            counts[prefix] += 1
            counts[f"{prefix}_made"] += bool(made)
        elif bid is not None:
            counts["bids"] += 1
            if seat in bids_made:
                made = bids_made[seat]
            else:
                contract = sum(as_int(bids.get(s)) for s in seats_of_side if not is_nil(bids.get(s)))
                made = as_mapping(sides.get(side)).get(
                    "made", sum(as_int(tricks.get(s)) for s in seats_of_side) >= contract
                )
            counts["bids_made"] += bool(made)
        side_details = as_mapping(sides.get(side))
        if "bags" in side_details:
            counts["bags"] += as_int(side_details["bags"])
        else:
            counts["bags"] += fallback_bags(bids, tricks, seats_of_side)
        out[seat] = counts
    return out


def fallback_bags(bids: Mapping[str, Any], tricks: Mapping[str, Any], seats: tuple[str, ...]) -> int:
    """The overtricks of a made contract, when the engine did not say (tricks count toward the bid)."""
    contract = sum(as_int(bids.get(seat)) for seat in seats if not is_nil(bids.get(seat)))
    taken = sum(as_int(tricks.get(seat)) for seat in seats)
    return max(taken - contract, 0)


def smudge_hand(record: Mapping[str, Any], details: Mapping[str, Any], partnerships: bool) -> dict[str, Counter]:
    bidder = record.get("bidder")
    if bidder not in SEATS:
        return {}
    bid = details.get("bid", 5 if record.get("bid") == "smudge" else as_int(record.get("bid")))
    smudge = details.get("smudge", bid == 5)
    made = details.get("made")
    if made is None:
        side = side_of(bidder, True)
        points = sum(1 for name in ("high", "low", "jack", "game") if record.get(name) == side)
        made = points == 4 and record.get("all_tricks") is True if smudge else points >= as_int(bid)
    counts: Counter = Counter(bids=1, bids_made=int(bool(made)))
    if smudge:
        counts.update(smudge_bids=1, smudges_made=int(bool(made)))
    return {bidder: counts}


def trumps_hand(record: Mapping[str, Any], details: Mapping[str, Any], partnerships: bool) -> dict[str, Counter]:
    declarer = record.get("declarer")
    if declarer not in SEATS:
        return {}
    made = details.get("made")
    if made is None:
        made = as_int(record.get("tricks")) >= as_int(record.get("bid"), 1)
    doubled = bool(details.get("doubled", record.get("doubled")) or details.get("redoubled", record.get("redoubled")))
    counts: Counter = Counter(contracts=1, contracts_made=int(bool(made)))
    if doubled:
        counts.update(doubled_contracts=1, doubled_made=int(bool(made)))
    return {declarer: counts}


def thieving_stink_hand(record: Mapping[str, Any], details: Mapping[str, Any],
                        partnerships: bool) -> dict[str, Counter]:
    stack = as_mapping(record.get("trump_stack"))
    holder = details.get("trump_stack_holder", stack.get("holder"))
    if holder not in SEATS:
        return {}
    size = as_int(details.get("trump_stack_size", stack.get("size")))
    return {holder: Counter(stack_holds=1, stack_cards=size)}


HAND_COUNTERS = {
    "spades": spades_hand,
    "smudge": smudge_hand,
    "trumps": trumps_hand,
    "thieving_stink": thieving_stink_hand,
}


def hand_counts(game_type: str, record: Any, details: Any, *, partnerships: bool = True) -> dict[str, Counter]:
    """What one hand adds to each seat's figures (seats with nothing to add are left out)."""
    counter = HAND_COUNTERS.get(game_type)
    if counter is None or not isinstance(record, Mapping):
        return {}
    return counter(record, as_mapping(details), partnerships)


class FiguresBuilder:
    """Adds hands up per (game type, player)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], Counter] = defaultdict(Counter)

    def add_hand(self, game_type: str, seats: Mapping[str, int], record: Any, details: Any, *,
                 partnerships: bool = True) -> None:
        for seat in SEATS:
            self.counts[(game_type, seats[seat])]["hands"] += 1
        for seat, counts in hand_counts(game_type, record, details, partnerships=partnerships).items():
            self.counts[(game_type, seats[seat])].update(counts)

    def figures(self) -> dict[tuple[str, int], dict[str, int]]:
        """Every count named for the game type (0 when it never happened), plus ``hands``."""
        out = {}
        for (game_type, player), counts in sorted(self.counts.items()):
            names = ("hands", *COUNT_NAMES.get(game_type, ()))
            out[(game_type, player)] = {name: int(counts.get(name, 0)) for name in names}
        return out


def ratio(part: int, whole: int, digits: int = 4) -> float | None:
    return round(part / whole, digits) if whole else None


def figure_rates(game_type: str, counts: Mapping[str, int]) -> dict[str, float | None]:
    """The rates shown beside the counts (``None`` where there is nothing to divide by)."""
    get = counts.get
    if game_type == "spades":
        return {
            "bid_success": ratio(get("bids_made", 0), get("bids", 0)),
            "nil_success": ratio(get("nils_made", 0), get("nils", 0)),
            "blind_nil_success": ratio(get("blind_nils_made", 0), get("blind_nils", 0)),
            "bags_per_hand": ratio(get("bags", 0), get("hands", 0)),
        }
    if game_type == "smudge":
        return {
            "bid_success": ratio(get("bids_made", 0), get("bids", 0)),
            "smudge_success": ratio(get("smudges_made", 0), get("smudge_bids", 0)),
        }
    if game_type == "trumps":
        return {
            "contract_success": ratio(get("contracts_made", 0), get("contracts", 0)),
            "doubled_success": ratio(get("doubled_made", 0), get("doubled_contracts", 0)),
        }
    if game_type == "thieving_stink":
        return {
            "stack_hold_rate": ratio(get("stack_holds", 0), get("hands", 0)),
            "average_stack": ratio(get("stack_cards", 0), get("stack_holds", 0), 2),
        }
    return {}

"""The Spades hand: four bids (a number of tricks, nil or blind nil) and four trick counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from .base import SEATS, HandForm, number_choices

BID_WORDS = {"nil": "nil", "blind_nil": "blind nil", 0: "nil"}


class SpadesHandForm(HandForm):
    game_type = "spades"
    template_name_hand = "hands/spades.html"
    groups = ("bids", "tricks")
    history_help = ("Each player's bid, then in brackets the tricks they took: “Ann 3 (4) ✓” means Ann bid 3 "
                    "and took 4. ✓: the bid was made (a trick bid, when the side took at least its contract; a "
                    "nil, when the player took no trick). ✗: it was not.")
    error_fields = {
        **{f"bids.{seat}": f"bid_{seat}" for seat in SEATS},
        **{f"tricks.{seat}": f"tricks_{seat}" for seat in SEATS},
        "bids": "bids",
        "tricks": "tricks",
        "note": "note",
    }

    def setup(self) -> None:
        options = self.game.options
        blind = options.get("blind_nil_allowed", True) and options.get("partnerships", True)
        bid_choices = [("nil", "Nil"), *([("blind_nil", "Blind nil")] if blind else []), *number_choices(1, 13)]
        for seat in SEATS:
            name = self.seat_names[seat]
            self.fields[f"bid_{seat}"] = forms.ChoiceField(
                choices=bid_choices, widget=forms.RadioSelect, label=f"{seat} · {name} bid",
                error_messages={"required": f"Choose {name}'s bid."},
            )
        for seat in SEATS:
            name = self.seat_names[seat]
            self.fields[f"tricks_{seat}"] = forms.ChoiceField(
                choices=number_choices(0, 13), widget=forms.RadioSelect, label=f"{seat} · {name} took",
                error_messages={"required": f"Choose how many tricks {name} took."},
            )
        # Bids first (made before play), then tricks (counted after), then the note.
        self.order_fields([*(f"bid_{s}" for s in SEATS), *(f"tricks_{s}" for s in SEATS), "note"])

    def bid_fields(self):
        return [self[f"bid_{seat}"] for seat in SEATS]

    def tricks_fields(self):
        return [self[f"tricks_{seat}"] for seat in SEATS]

    def record_from(self, data: Mapping[str, Any]) -> dict[str, Any]:
        def bid(value: str) -> Any:
            return value if value in ("nil", "blind_nil") else int(value)

        return {
            "bids": {seat: bid(data[f"bid_{seat}"]) for seat in SEATS},
            "tricks": {seat: int(data[f"tricks_{seat}"]) for seat in SEATS},
        }

    @classmethod
    def initial_fields(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for seat in SEATS:
            bid = record["bids"][seat]
            initial[f"bid_{seat}"] = "nil" if bid == 0 else str(bid)
            initial[f"tricks_{seat}"] = str(record["tricks"][seat])
        return initial

    @classmethod
    def describe(cls, record, details, names) -> str:
        """``Ann 3 (4) ✓``: each player's bid, the tricks they took in brackets, and whether the bid was
        made (✓) or not (✗), when the hand has been scored."""
        parts = []
        made = details.get("bids_made", {})
        for seat in SEATS:
            bid = record["bids"][seat]
            word = BID_WORDS.get(bid, str(bid))
            mark = "" if seat not in made else " ✓" if made[seat] else " ✗"
            parts.append(f"{names[seat]} {word} ({record['tricks'][seat]}){mark}")
        return " · ".join(parts)

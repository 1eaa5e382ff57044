"""The Trumps hand: declarer, bid, trump suit or no trump, double or redouble, tricks taken."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from .base import HandForm, number_choices

TRUMP_CHOICES = [("clubs", "♣ Clubs"), ("diamonds", "♦ Diamonds"), ("hearts", "♥ Hearts"),
                 ("spades", "♠ Spades"), ("notrump", "No trump")]
TRUMP_SIGNS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "notrump": " NT"}
DOUBLE_CHOICES = [("no", "No"), ("doubled", "Doubled"), ("redoubled", "Redoubled")]


class TrumpsHandForm(HandForm):
    game_type = "trumps"
    template_name_hand = "hands/trumps.html"
    error_fields = {"declarer": "declarer", "bid": "bid", "trump": "trump", "doubled": "double",
                     "redoubled": "double", "tricks": "tricks", "note": "note"}

    def setup(self) -> None:
        self.fields["declarer"] = forms.ChoiceField(
            choices=self.seat_choices(), widget=forms.RadioSelect, label="Declarer (who won the bid)",
            error_messages={"required": "Choose the declarer."})
        self.fields["bid"] = forms.ChoiceField(
            choices=number_choices(1, 13), widget=forms.RadioSelect, label="Bid (tricks contracted)",
            error_messages={"required": "Choose the bid."})
        self.fields["trump"] = forms.ChoiceField(
            choices=TRUMP_CHOICES, widget=forms.RadioSelect, label="Trumps",
            error_messages={"required": "Choose the trump suit, or no trump."})
        self.fields["double"] = forms.ChoiceField(
            choices=DOUBLE_CHOICES, widget=forms.RadioSelect, label="Doubled?", initial="no")
        self.fields["tricks"] = forms.ChoiceField(
            choices=number_choices(0, 13), widget=forms.RadioSelect,
            label="Tricks the declaring side took",
            error_messages={"required": "Choose how many tricks the declaring side took."})
        self.order_fields(["declarer", "bid", "trump", "double", "tricks", "note"])

    def record_from(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "declarer": data["declarer"],
            "bid": int(data["bid"]),
            "trump": data["trump"],
            "doubled": data["double"] in ("doubled", "redoubled"),
            "redoubled": data["double"] == "redoubled",
            "tricks": int(data["tricks"]),
        }

    @classmethod
    def initial_fields(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        double = "redoubled" if record["redoubled"] else "doubled" if record["doubled"] else "no"
        return {"declarer": record["declarer"], "bid": str(record["bid"]), "trump": record["trump"],
                "double": double, "tricks": str(record["tricks"])}

    @classmethod
    def describe(cls, record, details, names) -> str:
        double = " redoubled" if record["redoubled"] else " doubled" if record["doubled"] else ""
        made = "" if "made" not in details else " (made)" if details["made"] else f" ({details['short']} down)"
        return (f"{names[record['declarer']]} {record['bid']}{TRUMP_SIGNS[record['trump']]}{double}, "
                f"{record['tricks']} tricks{made}")

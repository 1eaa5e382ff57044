"""The Thieving Stink hand: face cards won by each side, the trump stack's size and who holds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from .base import HandForm, number_choices, side_names


class ThievingStinkHandForm(HandForm):
    game_type = "thieving_stink"
    template_name_hand = "hands/thieving_stink.html"
    groups = ("face_cards",)
    error_fields = {
        "face_cards.NS": "face_NS", "face_cards.EW": "face_EW", "face_cards": "face_cards",
        "trump_stack.size": "stack_size", "trump_stack.holder": "stack_holder", "trump_stack": "stack_size",
        "note": "note",
    }

    def setup(self) -> None:
        names = side_names(self.game, ("NS", "EW"))
        for side in ("NS", "EW"):
            self.fields[f"face_{side}"] = forms.ChoiceField(
                choices=number_choices(0, 16), widget=forms.RadioSelect,
                label=f"{side} · {names[side]}: face cards won",
                error_messages={"required": f"Choose how many face cards {names[side]} won."})
        self.fields["stack_size"] = forms.ChoiceField(
            choices=number_choices(4, 16), widget=forms.RadioSelect, label="Cards in the trump stack",
            error_messages={"required": "Choose the size of the trump stack."})
        self.fields["stack_holder"] = forms.ChoiceField(
            choices=self.seat_choices(), widget=forms.RadioSelect, label="Who holds the trump at the end?",
            error_messages={"required": "Choose who holds the trump."})
        self.order_fields(["face_NS", "face_EW", "stack_size", "stack_holder", "note"])

    def record_from(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "face_cards": {"NS": int(data["face_NS"]), "EW": int(data["face_EW"])},
            "trump_stack": {"holder": data["stack_holder"], "size": int(data["stack_size"])},
        }

    @classmethod
    def initial_fields(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        return {"face_NS": str(record["face_cards"]["NS"]), "face_EW": str(record["face_cards"]["EW"]),
                "stack_size": str(record["trump_stack"]["size"]), "stack_holder": record["trump_stack"]["holder"]}

    @classmethod
    def describe(cls, record, details, names) -> str:
        stack = record["trump_stack"]
        return (f"Face cards NS {record['face_cards']['NS']}, EW {record['face_cards']['EW']} · "
                f"stack of {stack['size']} held by {names[stack['holder']]}")

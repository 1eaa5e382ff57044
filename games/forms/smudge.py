"""The Smudge hand: bidder, bid, who took High, Low, Jack and Game, all tricks, forced or stolen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from .base import HandForm

NOBODY = "none"
BID_CHOICES = [("2", "2"), ("3", "3"), ("4", "4"), ("smudge", "Smudge (5)")]
YES_NO = [("no", "No"), ("yes", "Yes")]


class SmudgeHandForm(HandForm):
    game_type = "smudge"
    template_name_hand = "hands/smudge.html"
    error_fields = {
        name: name for name in ("bidder", "bid", "high", "low", "jack", "game", "all_tricks", "forced", "stolen",
                                "note")
    }

    def setup(self) -> None:
        sides = self.side_choices()
        self.fields["bidder"] = forms.ChoiceField(
            choices=self.seat_choices(), widget=forms.RadioSelect, label="Who won the bid?",
            error_messages={"required": "Choose who won the bid."})
        self.fields["bid"] = forms.ChoiceField(
            choices=BID_CHOICES, widget=forms.RadioSelect, label="Bid",
            error_messages={"required": "Choose the bid."})
        self.fields["high"] = forms.ChoiceField(
            choices=sides, widget=forms.RadioSelect, label="High (the top trump in play)",
            error_messages={"required": "Choose who took High."})
        self.fields["low"] = forms.ChoiceField(
            choices=sides, widget=forms.RadioSelect, label="Low (the lowest trump in play)",
            error_messages={"required": "Choose who took Low."})
        self.fields["jack"] = forms.ChoiceField(
            choices=[*sides, (NOBODY, "Not dealt")], widget=forms.RadioSelect, label="Jack of trumps",
            error_messages={"required": "Choose who took the Jack, or “Not dealt”."})
        self.fields["game"] = forms.ChoiceField(
            choices=[*sides, (NOBODY, "Tie")], widget=forms.RadioSelect, label="Game (most card points)",
            error_messages={"required": "Choose who took Game, or “Tie”."})
        self.fields["all_tricks"] = forms.ChoiceField(
            choices=YES_NO, widget=forms.RadioSelect, label="Did the bidding side take all six tricks?",
            initial="no")
        self.fields["forced"] = forms.BooleanField(
            required=False, label="Forced bid (all passed)")
        self.fields["stolen"] = forms.BooleanField(
            required=False, label="Stolen bid (the dealer matched)")
        self.order_fields(["bidder", "bid", "high", "low", "jack", "game", "all_tricks", "forced", "stolen", "note"])

    def record_from(self, data: Mapping[str, Any]) -> dict[str, Any]:
        def side(value: str) -> str | None:
            return None if value == NOBODY else value

        bid = data["bid"]
        record = {
            "bidder": data["bidder"],
            "bid": bid if bid == "smudge" else int(bid),
            "high": data["high"],
            "low": data["low"],
            "jack": side(data["jack"]),
            "game": side(data["game"]),
            "all_tricks": data["all_tricks"] == "yes",
        }
        if data.get("forced"):
            record["forced"] = True
        if data.get("stolen"):
            record["stolen"] = True
        return record

    @classmethod
    def initial_fields(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        bid = record["bid"]
        return {
            "bidder": record["bidder"],
            "bid": "smudge" if bid in ("smudge", 5) else str(bid),
            "high": record["high"],
            "low": record["low"],
            "jack": record["jack"] or NOBODY,
            "game": record["game"] or NOBODY,
            "all_tricks": "yes" if record["all_tricks"] else "no",
            "forced": bool(record.get("forced")),
            "stolen": bool(record.get("stolen")),
        }

    @classmethod
    def describe(cls, record, details, names) -> str:
        bid = "smudge" if record["bid"] in ("smudge", 5) else str(record["bid"])
        how = "forced " if record.get("forced") else "stole " if record.get("stolen") else ""
        made = "" if "made" not in details else " (made)" if details["made"] else " (set)"
        points = ", ".join(
            f"{label} {record[key] or ('not dealt' if key == 'jack' else 'tie')}"
            for key, label in (("high", "High"), ("low", "Low"), ("jack", "Jack"), ("game", "Game"))
        )
        every = " · all tricks" if record["all_tricks"] else ""
        return f"{names[record['bidder']]} {how}bid {bid}{made} · {points}{every}"

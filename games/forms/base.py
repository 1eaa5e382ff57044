"""What every hand form shares: seat and side names, the hidden idempotency fields, engine errors."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms

from games.models import Game

SEATS = ("N", "E", "S", "W")
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_names(game: Game) -> dict[str, str]:
    return {seat: player.name for seat, player in game.seats.items()}


def side_names(game: Game, sides) -> dict[str, str]:
    names = seat_names(game)
    return {side: " & ".join(names[seat] for seat in side) if len(side) == 2 else names[side] for side in sides}


def number_choices(low: int, high: int) -> list[tuple[str, str]]:
    return [(str(n), str(n)) for n in range(low, high + 1)]


class HandForm(forms.Form):
    """A hand record entered as form fields.

    Subclasses list their fields, say how to turn the cleaned data into the engine's record
    (``to_record``) and back (``initial_from_record``), which form field each record field's
    errors belong to (``engine_fields``), and how a stored hand reads in the history (``describe``).
    """

    game_type: ClassVar[str]
    template_name_hand: ClassVar[str]
    # Record path (e.g. "tricks.N", or its first dotted part "tricks") -> form field or group name.
    engine_fields: ClassVar[Mapping[str, str]] = {}
    groups: ClassVar[tuple[str, ...]] = ()

    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
    expected_number = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    note = forms.CharField(required=False, max_length=200, label="Note (optional)")

    def __init__(self, *args: Any, game: Game, with_reason: bool = False, **kwargs: Any):
        self.game = game
        self.seat_names = seat_names(game)
        self.group_errors: dict[str, list[str]] = {}
        super().__init__(*args, **kwargs)
        if with_reason:
            del self.fields["idempotency_key"], self.fields["expected_number"]
            self.fields["reason"] = forms.CharField(
                max_length=500, label="Reason for the correction",
                help_text="Say what was wrong, e.g. “tricks for N and E were swapped”.",
            )
        else:
            self.fields["idempotency_key"].initial = uuid.uuid4().hex
            self.fields["expected_number"].initial = game.hand_count + 1
        self.setup()

    def setup(self) -> None:
        """Hook: set choice labels that need the players' names."""

    def seat_choices(self) -> list[tuple[str, str]]:
        return [(seat, f"{seat} · {self.seat_names[seat]}") for seat in SEATS]

    def side_choices(self) -> list[tuple[str, str]]:
        names = side_names(self.game, ("NS", "EW"))
        return [("NS", f"NS · {names['NS']}"), ("EW", f"EW · {names['EW']}")]

    # the record

    def to_record(self) -> dict[str, Any]:
        record = self.record_from(self.cleaned_data)
        note = (self.cleaned_data.get("note") or "").strip()
        if note:
            record["note"] = note
        return record

    def record_from(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def initial_from_record(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        initial = cls.initial_fields(record)
        if record.get("note"):
            initial["note"] = record["note"]
        return initial

    @classmethod
    def initial_fields(cls, record: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def describe(cls, record: Mapping[str, Any], details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        """The hand in a line of players' words, for the history."""
        raise NotImplementedError

    # errors from the engine and the services

    def add_engine_error(self, error: Any) -> None:
        """Show an engine or service error beside the field it concerns.

        The error's field is a record path such as ``tricks.N``; the exact path is looked up first,
        then its first dotted part; anything else is shown above the form.
        """
        path = getattr(error, "field", None) or ""
        target = self.engine_fields.get(path) or self.engine_fields.get(path.split(".")[0])
        message = error.message
        if target in self.fields:
            if self.is_bound and target in self.errors:
                self.errors[target].append(message)
            else:
                self.add_error(target, message)
        elif target in self.groups:
            self.group_errors.setdefault(target, []).append(message)
        else:
            self.add_error(None, message)

    def group_error_list(self, group: str) -> list[str]:
        return self.group_errors.get(group, [])

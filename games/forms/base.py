"""What every form shares (showing what the services or the rules refused beside the field it concerns),
and what every hand form shares: seat and side names, the hidden idempotency fields."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms

from games.errors import DomainError
from games.models import Game
from games.rules import PARTNERSHIPS, SEATS

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_names(game: Game) -> dict[str, str]:
    return {seat: player.name for seat, player in game.seats.items()}


def side_names(game: Game, sides=None) -> dict[str, str]:
    """Each side's players by name ("Ann & Cat"; a seat playing alone: its player), as the game's rules seat them."""
    names = seat_names(game)
    ruleset = game.ruleset
    return {side: " & ".join(names[seat] for seat in ruleset.seats_of(side))
            for side in (ruleset.sides if sides is None else sides)}


class RefusalForm(forms.Form):
    """A form that shows what the services or the rules refused beside the field it concerns.

    ``error_fields`` maps an error's field (a record path such as ``tricks.N``, or its first dotted
    part ``tricks``) to the form field or group that shows it; anything else shows above the form.
    ``status`` is the HTTP status the page answers with after a refusal.
    """

    error_fields: ClassVar[Mapping[str, str]] = {}
    groups: ClassVar[tuple[str, ...]] = ()
    status = 400

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}
        self.refusal: DomainError | None = None

    def error_target(self, path: str) -> str | None:
        return self.error_fields.get(path) or self.error_fields.get(path.split(".")[0])

    def show_refusal(self, error: DomainError, status: int = 400) -> None:
        self.refusal, self.status = error, status
        target = self.error_target(error.field or "")
        if target in self.fields:
            if self.is_bound and target in self.errors:
                self.errors[target].append(error.message)
            else:
                self.add_error(target, error.message)
        elif target in self.groups:
            self.group_errors.setdefault(target, []).append(error.message)
        else:
            self.add_error(None, error.message)

    def focus_first_error(self) -> None:
        """Put the browser's focus (and so the view) on the first field shown with an error."""
        for name in self.fields:
            if name in self.errors or name in self.group_errors:
                self.fields[name].widget.attrs["autofocus"] = True
                return
        for group in self.groups:
            if group in self.group_errors:
                first = next((name for name in self.fields if name.startswith(f"{group}_")), None)
                if first:
                    self.fields[first].widget.attrs["autofocus"] = True
                return


class KeyedForm(RefusalForm):
    """A form that changes something, sent once: the key is the form's, so sending it twice (a double
    tap, Back then send, a retry after a lost answer) changes nothing more."""

    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = uuid.uuid4().hex


def number_choices(low: int, high: int) -> list[tuple[str, str]]:
    return [(str(n), str(n)) for n in range(low, high + 1)]


HAND_FORMS: dict[str, type[HandForm]] = {}


class HandForm(KeyedForm):
    """A hand record entered as form fields.

    Subclasses name their ``game_type`` (which registers them), list their fields, say how to turn
    the cleaned data into the engine's record (``to_record``) and back (``initial_from_record``),
    which form field each record field's errors belong to (``error_fields``), and how a stored hand
    reads in the history (``describe``).
    """

    game_type: ClassVar[str]
    template_name_hand: ClassVar[str]
    # How to read ``describe``'s lines, shown beside the history (empty: they read plainly).
    history_help: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        if "game_type" in cls.__dict__:
            HAND_FORMS[cls.game_type] = cls

    expected_number = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    note = forms.CharField(required=False, max_length=200, label="Note (optional)")

    def __init__(self, *args: Any, game: Game, with_reason: bool = False, **kwargs: Any):
        self.game = game
        self.seat_names = seat_names(game)
        super().__init__(*args, **kwargs)
        if with_reason:
            del self.fields["expected_number"]
            # The hand's version as the page showed it: a correction of a hand changed since is refused.
            self.fields["version"] = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
            self.fields["reason"] = forms.CharField(
                required=False, max_length=500, label="Reason (optional)",
                help_text="What was wrong, e.g. “tricks for N and E were swapped”: it is kept in the hand's trail.",
            )
        else:
            self.fields["expected_number"].initial = game.hand_count + 1
        self.setup()

    def setup(self) -> None:
        """Hook: set choice labels that need the players' names."""

    def seat_choices(self) -> list[tuple[str, str]]:
        return [(seat, f"{seat} · {self.seat_names[seat]}") for seat in SEATS]

    def side_choices(self) -> list[tuple[str, str]]:
        """The two partnerships, for the games played in them."""
        names = side_names(self.game, PARTNERSHIPS)
        return [(side, f"{side} · {names[side]}") for side in PARTNERSHIPS]

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

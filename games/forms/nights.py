"""The club night's forms: starting a night (its game's house rules as a new game has them, how a round ends,
how many rounds, the movement), and each of the director's actions on the night page. Each shows what the
night's services refused beside the field it concerns (``RefusalForm``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from django import forms

from games.errors import SimilarName
from games.models import Night, Player

from .base import KeyedForm, RefusalForm
from .games import HouseRulesForm

NUMBER = {"inputmode": "numeric"}


def player_choices(players: Sequence[Player], empty: str) -> list[tuple[str, str]]:
    return [("", empty), *((str(player.pk), player.name) for player in players)]


def picker(label: str, required: str) -> forms.IntegerField:
    """A player or table picked from a list: the list is what the page offers, the services say what is refused
    (a player who is not at a table, a table the round does not have), in their words."""
    return forms.IntegerField(label=label, widget=forms.Select, error_messages={
        "required": required, "invalid": "Pick one from the list."})


class NightForm(HouseRulesForm):
    """A new club night: its name, how a round ends (after a number of hands, a time limit, or a game to the
    target), how many rounds, the movement, and the games' house rules (the league's, unless changed)."""

    # A night's games end as its rounds do: the round's end sets ``last_hand``.
    leave_out = ("last_hand",)
    error_fields: ClassVar[dict[str, str]] = {"name": "name", "round_end": "round_end", "hands": "hands",
                                              "minutes": "minutes", "rounds": "rounds", "movement": "movement"}

    name = forms.CharField(required=False, max_length=120, label="Name (optional)",
                           widget=forms.TextInput(attrs={"placeholder": "Club night", "autocomplete": "off"}))
    round_end = forms.ChoiceField(choices=Night.RoundEnd.choices, initial=Night.RoundEnd.HANDS,
                                  widget=forms.RadioSelect, label="A round ends")
    # Both asked at once (a page without script cannot show only the one chosen): the other is not used.
    hands = forms.IntegerField(required=False, initial=8, label="Hands a round", widget=forms.NumberInput(attrs=NUMBER))
    minutes = forms.IntegerField(required=False, initial=30, label="Minutes a round",
                                 widget=forms.NumberInput(attrs=NUMBER))
    rounds = forms.IntegerField(initial=3, label="Rounds", widget=forms.NumberInput(attrs=NUMBER))
    movement = forms.ChoiceField(choices=Night.Movement.choices, initial=Night.Movement.INDIVIDUAL,
                                 widget=forms.RadioSelect, label="Partners")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # The number a round's end needs must be there; the other is not asked (the service checks the ranges).
        needed = {Night.RoundEnd.HANDS: ("hands", "Say how many hands a round has."),
                  Night.RoundEnd.TIME: ("minutes", "Say how many minutes a round lasts.")}.get(data.get("round_end"))
        if needed and data.get(needed[0]) is None and needed[0] not in self.errors:
            self.add_error(needed[0], needed[1])
        return data

    def error_target(self, path: str) -> str | None:
        if path.startswith("options."):
            path = path[len("options."):]
        return super().error_target(path)


class CheckInForm(RefusalForm):
    """Check someone in: a tap on one of the league's names, or a new name typed (the organiser's)."""

    error_fields: ClassVar[dict[str, str]] = {"player": "player", "name": "name", "partner": "player"}

    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(required=False, max_length=80, label="Someone new",
                           widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Their name"}))
    allow_similar = forms.BooleanField(
        required=False, label="Yes, add them: a new player, not the one with a similar name")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name = " ".join((data.get("name") or "").split())
        data["name"] = name
        if "player" in self.errors or "name" in self.errors:
            return data
        if data.get("player") is not None and name:
            self.add_error("name", "Tap a name or type a new one, not both.")
        elif data.get("player") is None and not name:
            self.add_error("name", "Tap a name on the list, or type the name of someone new.")
        return data

    @property
    def asks_to_confirm_names(self) -> bool:
        return isinstance(self.refusal, SimilarName) or bool(self.data.get("allow_similar"))


class SelfCheckInForm(RefusalForm):
    """A player with the night's code says who they are: a tap on their name, or their name typed."""

    error_fields: ClassVar[dict[str, str]] = {"player": "name", "name": "name"}

    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(required=False, max_length=80, label="Or type your name",
                           widget=forms.TextInput(attrs={"autocomplete": "name", "placeholder": "Your name"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["name"] = " ".join((data.get("name") or "").split())
        if not self.errors and data.get("player") is None and not data["name"]:
            self.add_error("name", "Tap your name on the list, or type it.")
        return data


class PlayerForm(RefusalForm):
    """One player of the night, by id (checking out)."""

    player = forms.IntegerField(widget=forms.HiddenInput, error_messages={"required": "Say who leaves."})


class PairForm(RefusalForm):
    """Two players of a pairs night without a partner become partners."""

    error_fields: ClassVar[dict[str, str]] = {"player": "player", "partner": "partner"}

    player = picker("Player", "Pick a player.")
    partner = picker("Partner", "Pick a partner.")

    def __init__(self, *args: Any, players: Sequence[Player] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].widget.choices = player_choices(players, "— pick —")
        self.fields["partner"].widget.choices = player_choices(players, "— pick —")


class RoundForm(KeyedForm):
    """Start the next round (``move_on``: though a table of the last one is still playing)."""

    move_on = forms.BooleanField(required=False, widget=forms.HiddenInput)


class SubstituteForm(RefusalForm):
    """Someone takes a seated player's place at their table, from the next hand."""

    error_fields: ClassVar[dict[str, str]] = {"leaving": "leaving", "arriving": "arriving"}

    leaving = picker("Who leaves", "Pick the player who leaves.")
    arriving = picker("Who takes their seat", "Pick who takes the seat.")

    def __init__(self, *args: Any, seated: Sequence[Player] = (), others: Sequence[Player] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["leaving"].widget.choices = player_choices(seated, "— pick —")
        self.fields["arriving"].widget.choices = player_choices(others, "— pick —")


def table_choices(numbers: Sequence[int]) -> list[tuple[str, str]]:
    return [("", "— table —"), *((str(number), f"Table {number}") for number in numbers)]


class TableMoveForm(RefusalForm):
    """A table of the round gets another number in the room."""

    error_fields: ClassVar[dict[str, str]] = {"table": "table", "to": "to"}

    table = picker("Table", "Pick the table.")
    to = forms.IntegerField(label="Moves to number", widget=forms.NumberInput(attrs=NUMBER),
                            error_messages={"required": "Say which number it moves to."})

    def __init__(self, *args: Any, tables: Sequence[int] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["table"].widget.choices = table_choices(tables)


class TableEndForm(RefusalForm):
    """End a table's game now: with the hands played, or abandoned."""

    error_fields: ClassVar[dict[str, str]] = {"table": "table", "game": "table"}

    table = picker("Table", "Pick the table.")
    abandon = forms.BooleanField(required=False, label="Abandon it instead: the game counts for nothing")

    def __init__(self, *args: Any, tables: Sequence[int] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["table"].widget.choices = table_choices(tables)


class NightEndForm(RefusalForm):
    """End the night (``end_tables``: the tables still playing end now, with the hands played)."""

    end_tables = forms.BooleanField(required=False, label="End the tables still playing now, with the hands played")


class CodeForm(RefusalForm):
    """Renew the night's code: the old QR and table cards open nothing from then on."""

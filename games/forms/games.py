"""Starting a game (the game type and league first, then seats, house rules and the first dealer), and the
forms that change a game as a whole: undoing its last hand, abandoning it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.humanize.templatetags.humanize import apnumber

from games.errors import SimilarName
from games.models import League, Player
from games.rules import Option, ruleset_class, rulesets

from .base import SEAT_WORDS, SEATS, KeyedForm

CASUAL = ""


def humane(value: str) -> str:
    return value.replace("_", " ")


def option_field(spec: Option, default: Any) -> forms.Field:
    label = humane(spec.name).capitalize()
    if spec.kind == "bool":
        return forms.TypedChoiceField(
            choices=[("true", "Yes"), ("false", "No")], coerce=lambda value: value == "true",
            widget=forms.RadioSelect, label=label, help_text=spec.help,
            initial="true" if default else "false",
        )
    if spec.kind == "seat":
        return forms.ChoiceField(
            choices=[(seat, f"{seat} · {SEAT_WORDS[seat]}") for seat in spec.choices], widget=forms.RadioSelect,
            label=label, help_text=spec.help, initial=default,
        )
    if spec.kind == "choice":
        return forms.ChoiceField(
            choices=[(choice, humane(choice)) for choice in spec.choices], widget=forms.RadioSelect,
            label=label, help_text=spec.help, initial=default,
        )
    return forms.IntegerField(
        required=not spec.nullable, min_value=spec.minimum, label=label, help_text=spec.help, initial=default,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def option_fields(game_type: str, defaults: Mapping[str, Any]) -> dict[str, forms.Field]:
    """A form field for each of the game's options, prefilled with ``defaults`` (league's, then the game's)."""
    return {
        f"opt_{spec.name}": option_field(spec, defaults.get(spec.name, spec.default))
        for spec in ruleset_class(game_type).all_option_specs()
    }


def option_value(spec: Option, value: Any) -> Any:
    """A form field's value (as sent, or as prefilled) as the option's own type, for comparing and showing."""
    if spec.kind == "bool":
        return value if isinstance(value, bool) else str(value) == "true"
    if spec.kind == "int":
        if value in (None, ""):
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            return value
    return value


def game_choices() -> list[tuple[str, str]]:
    return [(ruleset.game_type, ruleset.name) for ruleset in rulesets()]


class ChooseGameForm(forms.Form):
    """Step one (a GET form): which game, and in which league."""

    type = forms.ChoiceField(choices=game_choices, widget=forms.RadioSelect, label="Game")
    league = forms.ChoiceField(required=False, label="League")

    def __init__(self, *args: Any, leagues: Sequence[League], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["league"].choices = [(CASUAL, "Casual game (no league)"),
                                         *((league.slug, league.name) for league in leagues)]


class HouseRulesForm(KeyedForm):
    """A form that sets a game's house rules (``opt_<name>`` fields, prefilled with the league's), shown folded
    into one line until asked for: the new game's, and a club night's (whose games all play by them).
    ``leave_out``: options the form does not ask (a night's rounds say when its games end, not ``last_hand``)."""

    leave_out: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, game_type: str, defaults: Mapping[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game_type = game_type
        self.fields.update({name: field for name, field in option_fields(game_type, defaults).items()
                            if name[4:] not in self.leave_out})

    def option_specs(self) -> list[Option]:
        return [spec for spec in ruleset_class(self.game_type).all_option_specs() if spec.name not in self.leave_out]

    def error_target(self, path: str) -> str | None:
        """An option's refusal shows at its own field."""
        return f"opt_{path}" if f"opt_{path}" in self.fields else super().error_target(path)

    def option_rows(self):
        return [self[name] for name in self.fields if name.startswith("opt_")]

    @property
    def rules_open(self) -> bool:
        """The house rules are shown folded, unless one of them is refused."""
        return any(name.startswith("opt_") for name in self.errors)

    def rules_line(self) -> str:
        """The house rules as the form holds them, in one line: the target, who deals first, and every rule
        that is not the game's usual one ("to 300 · North deals first · Nil value: 100")."""
        words = []
        for spec in sorted(self.option_specs(), key=lambda spec: spec.name != "target"):
            value = option_value(spec, self[f"opt_{spec.name}"].value())
            if spec.name == "target":
                words.append(f"to {value}")
            elif spec.name == "first_dealer":
                words.append(f"{SEAT_WORDS.get(value, value)} deals first")
            elif value != spec.default:
                label = humane(spec.name).capitalize()
                shown = ("yes" if value else "no") if spec.kind == "bool" else (
                    "none" if value is None else humane(str(value)))
                words.append(f"{label}: {shown}")
        return " · ".join(words)

    def options(self) -> dict[str, Any]:
        return {name[4:]: value for name, value in self.cleaned_data.items() if name.startswith("opt_")}


class NewGameForm(HouseRulesForm):
    """Step two: a player in each seat (picked, or added by name), the house rules, and (for a game
    played in matches) whether to play a match."""

    def __init__(self, *args: Any, game_type: str, players: Sequence[Player], defaults: Mapping[str, Any],
                 league: League | None = None, **kwargs: Any):
        super().__init__(*args, game_type=game_type, defaults=defaults, **kwargs)
        self.league = league
        self.players = {player.pk: player for player in players}
        choices = [("", "— pick a player —"), *((str(p.pk), p.name) for p in players)]
        options = {name: self.fields.pop(name) for name in list(self.fields) if name.startswith("opt_")}
        for seat in SEATS:
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=choices, required=False, label=f"{seat} · {SEAT_WORDS[seat]}")
            self.fields[f"new_{seat}"] = forms.CharField(
                required=False, max_length=80, label=f"New player at {SEAT_WORDS[seat]}",
                widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Name"}))
        self.fields.update(options)
        self.fields["allow_similar"] = forms.BooleanField(
            required=False, label="Yes, add them: they are new players, not the ones with a similar name")
        if league is None:
            # A league's games follow its house rule; a casual table chooses for itself.
            self.fields["confirm_hands"] = forms.BooleanField(
                required=False, label="The other side confirms each hand on their phone")
        match_games = ruleset_class(game_type).match_games
        if match_games:
            self.fields["match"] = forms.BooleanField(
                required=False, label=f"Play a {apnumber(match_games)}-game match (partners change each game)")

    def error_target(self, path: str) -> str | None:
        """``seats.N`` shows at North's seat, an option at its own field."""
        if path.startswith("seats."):
            return f"seat_{path.split('.')[1]}"
        return super().error_target(path)

    def seat_rows(self):
        return [(seat, self[f"seat_{seat}"], self[f"new_{seat}"]) for seat in SEATS]

    def new_player_rows(self):
        return [self[f"new_{seat}"] for seat in SEATS]

    @property
    def new_players_open(self) -> bool:
        return any(self[f"new_{seat}"].value() or f"new_{seat}" in self.errors for seat in SEATS)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen: list[str] = []
        for seat in SEATS:
            picked, new = data.get(f"seat_{seat}"), (data.get(f"new_{seat}") or "").strip()
            if picked and new:
                self.add_error(f"new_{seat}", "Pick a player or type a new name, not both.")
            elif not picked and not new:
                self.add_error(f"seat_{seat}", f"Choose who sits {SEAT_WORDS[seat]}, or add a new player.")
            elif picked:
                if int(picked) not in self.players:
                    self.add_error(f"seat_{seat}", "That player is not on the list.")
                elif picked in chosen:
                    self.add_error(f"seat_{seat}", "This player already has a seat.")
                chosen.append(picked)
        return data

    def seats(self) -> dict[str, int | str]:
        """Each seat's player: the id of the one picked, or the name of a new player to add."""
        return {seat: int(self.cleaned_data[f"seat_{seat}"]) if self.cleaned_data.get(f"seat_{seat}")
                else self.cleaned_data[f"new_{seat}"].strip() for seat in SEATS}

    @property
    def asks_to_confirm_names(self) -> bool:
        """A new name was refused as too like an existing player's: the person may confirm it."""
        return isinstance(self.refusal, SimilarName) or bool(self.data.get("allow_similar"))

    @property
    def allow_similar(self) -> bool:
        return bool(self.cleaned_data.get("allow_similar"))

    @property
    def as_match(self) -> bool:
        return bool(self.cleaned_data.get("match"))

    @property
    def confirmation(self) -> str | None:
        """A casual game's choice (``opponents`` or ``off``); None for a league's game (its house rule)."""
        if "confirm_hands" not in self.fields:
            return None
        return "opponents" if self.cleaned_data.get("confirm_hands") else "off"


class UndoForm(KeyedForm):
    """Undo the last hand: the number shown on the page (refused if another hand became the last one)."""

    number = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(required=False, max_length=500, label="Reason (optional)")


class ConfirmForm(KeyedForm):
    """A yes to a question the page asked (abandoning a game)."""

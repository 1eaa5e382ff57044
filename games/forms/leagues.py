"""The organiser's forms: a league and its house rules, its members, invitations and players."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django import forms

from games.models import League, Membership, Player, display_name
from games.rules import rulesets

from .base import RefusalForm
from .games import option_field
from .users import UsernameForm

REMOVE = "remove"
ROLE_CHOICES = [("scorekeeper", "Scorekeeper (can record hands)"), ("member", "Member (can follow)"),
                ("owner", "Owner (can manage the league)"), (REMOVE, "Remove from the league")]
PRIVACY_CHOICES = [("public", "Public: anyone can follow its games and standings"),
                   ("private", "Private: only its members see anything of it")]
# League house rules leave out who deals first: that is chosen at each table.
TABLE_ONLY_OPTIONS = {"first_dealer"}


class LeagueForm(RefusalForm):
    """A league's name, web address (when created), whether it is public, and its house rules per game."""

    error_fields = {"name": "name", "slug": "slug", "is_public": "is_public", "confirmation": "confirmation",
                    "provisional_hours": "provisional_hours"}

    name = forms.CharField(max_length=120, label="Name", widget=forms.TextInput(attrs={"autocomplete": "off"}))
    slug = forms.SlugField(max_length=80, required=False, label="Web address (optional)",
                           help_text="The end of the league's address, e.g. thursday-club; made from the name "
                                     "if you leave it empty.",
                           widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}))
    privacy = forms.ChoiceField(choices=PRIVACY_CHOICES, initial="public", widget=forms.RadioSelect,
                                label="Who can see it")
    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any):
        if league is not None:
            kwargs.setdefault("initial", {"name": league.name,
                                          "privacy": "public" if league.is_public else "private"})
        super().__init__(*args, **kwargs)
        if league is not None:
            del self.fields["slug"], self.fields["idempotency_key"]
            # Confirmation by the other side, Bridgemate-style: a house rule for the games started from now on.
            self.fields["confirmation"] = forms.ChoiceField(
                choices=[("off", "Off: the scorekeeper's entry stands"),
                         ("opponents", "The other side confirms each hand on their phone")],
                initial=league.confirmation, widget=forms.RadioSelect, label="Confirming hands", required=False)
            self.fields["provisional_hours"] = forms.IntegerField(
                min_value=0, max_value=24 * 31, initial=league.provisional_hours, label="Provisional for (hours)",
                required=False,
                help_text="A finished game with hands not yet confirmed counts in the standings once every hand "
                          "is confirmed, or after this many hours.",
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
        else:
            self.fields["idempotency_key"].initial = uuid.uuid4().hex
        current = league.default_options if league is not None else {}
        self.games: list[tuple[Any, list[str]]] = []
        self.customised = {game_type for game_type, options in current.items() if options}
        for ruleset in rulesets():
            names = []
            for spec in ruleset.option_specs:
                if spec.name in TABLE_ONLY_OPTIONS:
                    continue
                name = f"{ruleset.game_type}__{spec.name}"
                self.fields[name] = option_field(spec, current.get(ruleset.game_type, {}).get(spec.name, spec.default))
                names.append(name)
            self.games.append((ruleset, names))

    def error_target(self, path: str) -> str | None:
        if path.startswith("default_options"):
            return None
        return super().error_target(path)

    @property
    def is_public(self) -> bool:
        return self.cleaned_data["privacy"] == "public"

    def house_rules(self) -> list[dict[str, Any]]:
        """Per game: its name and its option fields (for the template), in the registry's order."""
        return [{"name": ruleset.name, "game_type": ruleset.game_type, "fields": [self[name] for name in names],
                 "customised": ruleset.game_type in self.customised,
                 "open": ruleset.game_type in self.customised or any(self[name].errors for name in names)}
                for ruleset, names in self.games]

    def default_options(self) -> dict[str, dict[str, Any]]:
        """The house rules that differ from each game's own defaults (those follow the game's rules)."""
        chosen: dict[str, dict[str, Any]] = {}
        for ruleset, names in self.games:
            specs = {spec.name: spec for spec in ruleset.option_specs}
            for name in names:
                option = name.split("__", 1)[1]
                value = self.cleaned_data.get(name)
                if value != specs[option].default:
                    chosen.setdefault(ruleset.game_type, {})[option] = value
        return chosen


class MemberForm(UsernameForm):
    """Invite someone by username with a role, give a member a lower role, or remove them.

    A name with no account is not refused here: it is invited like any other (``league_member_named``)."""

    error_fields = {"role": "role", "username": "username"}
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial="scorekeeper", widget=forms.RadioSelect, label="Role")

    def role_value(self) -> str | None:
        role = self.cleaned_data["role"]
        return None if role == REMOVE else role


class InvitationForm(RefusalForm):
    """A link (and QR code) that lets people join as members or scorekeepers."""

    error_fields = {"role": "role", "days": "days", "max_uses": "max_uses", "player": "player"}

    role = forms.ChoiceField(choices=[("scorekeeper", "Scorekeeper: records hands and starts games"),
                                      ("member", "Member: follows the league")],
                             initial="scorekeeper", widget=forms.RadioSelect, label="They join as")
    days = forms.TypedChoiceField(choices=[("1", "1 day"), ("7", "7 days"), ("30", "30 days")], coerce=int,
                                  initial="7", widget=forms.RadioSelect, label="The link works for")
    max_uses = forms.IntegerField(min_value=1, max_value=500, initial=1, label="How many people can use it",
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    player = forms.ChoiceField(required=False, label="Who they are at the table (optional)",
                               help_text="Links the account that accepts to this player, so their games and "
                                         "ratings are theirs. For one person only.")
    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.players = {str(player.pk): player for player in players if player.user_id is None}
        self.fields["player"].choices = [("", "— not one of the players yet —"),
                                         *((pk, player.name) for pk, player in self.players.items())]
        self.fields["idempotency_key"].initial = uuid.uuid4().hex

    def chosen_player(self) -> Player | None:
        return self.players.get(self.cleaned_data.get("player") or "")


class PlayerAddForm(RefusalForm):
    error_fields = {"name": "name"}

    name = forms.CharField(max_length=80, label="Name", widget=forms.TextInput(attrs={"autocomplete": "off"}))
    allow_similar = forms.BooleanField(required=False, label="This is someone else, with a similar name")
    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "add_%s")
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = uuid.uuid4().hex


class PlayerLinkForm(RefusalForm):
    """An owner links one of the league's players to a member's account."""

    error_fields = {"player": "player", "username": "user"}

    player = forms.ChoiceField(label="Player")
    user = forms.ChoiceField(label="is the account of")

    def __init__(self, *args: Any, players: Sequence[Player], members: Sequence[Membership], **kwargs: Any):
        kwargs.setdefault("auto_id", "link_%s")
        super().__init__(*args, **kwargs)
        self.players = {str(player.pk): player for player in players if player.user_id is None}
        # Members who are not one of the league's players yet.
        taken = {player.user_id for player in players}
        self.users = {str(m.user.pk): m.user for m in members if m.user.pk not in taken}
        self.fields["player"].choices = [(pk, player.name) for pk, player in self.players.items()]
        self.fields["user"].choices = [(pk, f"{display_name(user)} ({user.username})")
                                       for pk, user in self.users.items()]


class MergeForm(RefusalForm):
    """Two records of one person: ``merge`` goes into ``keep``."""

    error_fields = {"keep": "keep", "merge": "merge"}

    merge = forms.ChoiceField(label="Merge this player…")
    keep = forms.ChoiceField(label="…into this one (the name kept)")

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any):
        kwargs.setdefault("auto_id", "merge_%s")
        super().__init__(*args, **kwargs)
        self.players = {str(player.pk): player for player in players}
        choices = [("", "— choose —"), *((pk, player.name) for pk, player in self.players.items())]
        self.fields["merge"].choices = self.fields["keep"].choices = choices

    def chosen(self) -> tuple[Player, Player]:
        return self.players[self.cleaned_data["keep"]], self.players[self.cleaned_data["merge"]]


class SeasonForm(RefusalForm):
    """A season: its name and dates (each action of the seasons page uses the fields it needs)."""

    error_fields = {"name": "name", "starts_on": "starts_on", "ends_on": "ends_on",
                    "close_previous_on": "close_previous_on"}

    name = forms.CharField(max_length=80, required=False, label="Name", help_text="e.g. Autumn 2026")
    starts_on = forms.DateField(required=False, label="First day", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, label="Last day (optional: open until closed)",
                              widget=forms.DateInput(attrs={"type": "date"}))
    close_previous_on = forms.DateField(required=False, label="Last day of the current season (optional: today)",
                                        widget=forms.DateInput(attrs={"type": "date"}))

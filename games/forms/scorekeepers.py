"""A casual game's creator adds (or removes) a scorekeeper by username."""

from __future__ import annotations

from django import forms

from .users import ExistingUsernameForm

ADD, REMOVE = "add", "remove"


class ScorekeeperForm(ExistingUsernameForm):
    action = forms.ChoiceField(choices=[(ADD, "Add"), (REMOVE, "Remove")], initial=ADD, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "scorekeeper_%s")  # the hand form on the same page has its own ids
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = "Someone with an account, who may then record and correct hands."

    @property
    def allowed(self) -> bool:
        return self.cleaned_data["action"] == ADD

"""The league organiser's form: add a member (a scorekeeper, usually), change a role, or remove one."""

from __future__ import annotations

from django import forms

from .users import ExistingUsernameForm

REMOVE = "remove"
ROLE_CHOICES = [("scorekeeper", "Scorekeeper (can record hands)"), ("member", "Member (can follow)"),
                ("owner", "Owner (can manage the league)"), (REMOVE, "Remove from the league")]


class MemberForm(ExistingUsernameForm):
    error_fields = {"role": "role"}
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial="scorekeeper", widget=forms.RadioSelect, label="Role")

    def role_value(self) -> str | None:
        role = self.cleaned_data["role"]
        return None if role == REMOVE else role

"""The league organiser's form: add a member (a scorekeeper, usually), change a role, or remove one."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

REMOVE = "remove"
ROLE_CHOICES = [("scorekeeper", "Scorekeeper (can record hands)"), ("member", "Member (can follow)"),
                ("owner", "Owner (can manage the league)"), (REMOVE, "Remove from the league")]


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username",
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}))
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial="scorekeeper", widget=forms.RadioSelect, label="Role")

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"There is no user called “{username}”. They need an account first.")
        self.user = user
        return username

    def role_value(self) -> str | None:
        role = self.cleaned_data["role"]
        return None if role == REMOVE else role

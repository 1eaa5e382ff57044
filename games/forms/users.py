"""Naming another user in a form (a league member, a casual game's scorekeeper)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from .base import RefusalForm


class UsernameForm(RefusalForm):
    """A form with someone's login name (``username``), as typed, spaces trimmed; whether an account has it is
    for the service to find out (and, where that must not show, not to tell)."""

    username = forms.CharField(max_length=150, label="Username",
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}))


class ExistingUsernameForm(UsernameForm):
    """A form with a ``username`` that must belong to an account; the account is ``self.user``."""

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"There is no user called “{username}”. Send them an invitation link "
                                        "instead: they sign up through it.")
        self.user = user
        return username

"""Accounts: signing up, and a user's own profile."""

from __future__ import annotations

from typing import Any

from django import forms

from .base import RefusalForm


class SignupForm(RefusalForm):
    """A display name (what others see), a username to sign in with, a password typed twice; an email
    address to reset it, when reset is offered."""

    error_fields = {"display_name": "display_name", "username": "username", "password": "password1",
                    "email": "email"}

    display_name = forms.CharField(
        max_length=150, label="Your name", help_text="What other players see, e.g. “Ann Lee”.",
        widget=forms.TextInput(attrs={"autocomplete": "name"}))
    username = forms.CharField(
        max_length=150, label="Username", help_text="To sign in with; only your leagues' members see it.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}))
    password1 = forms.CharField(label="Password", strip=False, help_text="At least 8 characters, not all digits.",
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label="Password again", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    email = forms.EmailField(required=False, label="Email (optional)",
                             help_text="Only to reset your password if you forget it.",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    invitation = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, with_email: bool = True, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if not with_email:
            del self.fields["email"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password1") and data.get("password2") is not None and data["password1"] != data["password2"]:
            self.add_error("password2", "The two passwords differ; type the same password twice.")
        return data


class ProfileForm(RefusalForm):
    error_fields = {"display_name": "display_name", "email": "email"}

    display_name = forms.CharField(max_length=150, label="Your name", help_text="What other players see.",
                                   widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(required=False, label="Email (optional)",
                             help_text="Only to reset your password if you forget it.",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))

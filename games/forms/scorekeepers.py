"""A casual game's creator adds (or removes) a scorekeeper by username."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

ADD, REMOVE = "add", "remove"


class ScorekeeperForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username",
                               help_text="Someone with an account, who may then record and correct hands.",
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}))
    action = forms.ChoiceField(choices=[(ADD, "Add"), (REMOVE, "Remove")], initial=ADD, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "scorekeeper_%s")  # the hand form on the same page has its own ids
        super().__init__(*args, **kwargs)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"There is no user called “{username}”. They need an account first.")
        self.user = user
        return username

    @property
    def allowed(self) -> bool:
        return self.cleaned_data["action"] == ADD

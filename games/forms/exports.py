"""The owner's forms for a league's life outside the site: restoring a backup, and webhook endpoints."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from games.models import WEBHOOK_EVENTS
from games.services.restore_uploads import in_request_bytes, max_backup_bytes

from .base import KeyedForm, RefusalForm


class RestoreForm(KeyedForm):
    """A backup file (from a league's "Download backup"), and optionally a new name and address."""

    error_fields = {"document": "backup", "format": "backup", "version": "backup", "name": "name", "slug": "slug"}

    backup = forms.FileField(label="Backup file (.json)",
                             help_text="The file a league's owner downloads with “Download backup”.",
                             widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}))
    name = forms.CharField(max_length=120, required=False, label="Name of the new league (optional)",
                           help_text="The backup's name if you leave it empty.")
    slug = forms.SlugField(max_length=80, required=False, label="Web address (optional)",
                           help_text="The backup's if it is free; otherwise one made from the name.",
                           widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}))

    def clean_backup(self) -> Any:
        """A small backup's document; a larger one's upload is kept as it is (``self.upload``), to be stored and
        restored in the background, and this is None."""
        upload = self.cleaned_data["backup"]
        self.upload = None
        if upload.size > max_backup_bytes():
            raise forms.ValidationError(f"the file is larger than {max_backup_bytes() // (1024 * 1024):,} MB; "
                                        "restore it with the import_league command instead")
        if upload.size > in_request_bytes():
            self.upload = upload
            return None
        try:
            return json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise forms.ValidationError(f"this file is not a Scorekeeper backup (it is not JSON: {error})") from None


EVENT_CHOICES = [(name, f"{name}: {what}") for name, what in WEBHOOK_EVENTS.items()]


class WebhookForm(RefusalForm):
    """An endpoint: where to send events, which ones, and a note saying what it is for."""

    error_fields = {"url": "url", "events": "events", "description": "description", "is_active": "url"}

    url = forms.CharField(max_length=500, label="Address (URL)",
                          help_text="Where each event is sent as a signed POST, e.g. https://hooks.example.com/scorekeeper",
                          widget=forms.URLInput(attrs={"autocapitalize": "none", "spellcheck": "false",
                                                       "placeholder": "https://"}))
    events = forms.MultipleChoiceField(choices=EVENT_CHOICES, widget=forms.CheckboxSelectMultiple,
                                       label="Events to send", initial=list(WEBHOOK_EVENTS))
    description = forms.CharField(max_length=200, required=False, label="What it is for (optional)")

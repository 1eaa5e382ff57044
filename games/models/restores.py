"""A league restore too big to make while its request waits: the uploaded backup, kept in the database in
chunks, and how far the background work that checks and writes it has got (docs/league-backup.md).

The upload is kept in the database, not in a file: every app server and every Celery worker reads the same
database, whereas a file written by the app server that took the upload is on that one machine's disk (or
needs a shared volume or an object store the deployment would have to provide). Chunks of about a megabyte
are written and read one at a time, so neither the request nor the worker holds the whole backup.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .play import League


class LeagueRestore(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", "Waiting to start"
        CHECKING = "checking", "Checking the backup"
        WRITING = "writing", "Writing the new league"
        DONE = "done", "Restored"
        REFUSED = "refused", "Refused: nothing was imported"
        FAILED = "failed", "Stopped on an error: nothing was imported"

    FINAL = (State.DONE, State.REFUSED, State.FAILED)

    # Only whoever uploaded it sees it.
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The new league's name and address as asked for (empty: the backup's).
    name = models.CharField(max_length=120, blank=True)
    slug = models.CharField(max_length=80, blank=True)
    size = models.PositiveBigIntegerField(help_text="The upload's size in bytes.")
    sha256 = models.CharField(max_length=64)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    # Progress: the games checked so far (and how far into the file), then written; the total once counted.
    games_total = models.PositiveIntegerField(null=True, blank=True)
    games_checked = models.PositiveIntegerField(default=0)
    games_written = models.PositiveIntegerField(default=0)
    bytes_read = models.PositiveBigIntegerField(default=0)
    # Refused: the problems as a refusal in the request lists them, and how many were found in all.
    problems = models.JSONField(default=list, blank=True)
    problem_count = models.PositiveIntegerField(default=0)
    # Done: the new league and the report (ImportReport.as_dict()).
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    report = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"restore {self.pk} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in self.FINAL


class RestoreChunk(models.Model):
    """One piece of an uploaded backup, in order (``number`` from 0)."""

    restore = models.ForeignKey(LeagueRestore, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["restore", "number"], name="one_restore_chunk_per_number")]

    def __str__(self) -> str:
        return f"chunk {self.number} of restore {self.restore_id}"

"""Webhooks: addresses a league's owners register to be told when its games change, and every delivery made.

The rules (who may register one, which addresses are refused, when a delivery is retried) live in
``games/services/webhooks.py`` and ``games/webhooks/``; these tables only remember.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .play import League

# The events an endpoint can ask for, and what each means, in the order the pages list them.
WEBHOOK_EVENTS = {
    "hand.recorded": "a hand is recorded in one of the league's games",
    "hand.corrected": "a hand is corrected, or the last hand taken back",
    "hand.confirmed": "a player of the other side confirms a hand (or a correction settles their dispute)",
    "hand.disputed": "a player of the other side disputes a hand, saying what they think it was",
    "game.finished": "one of the league's games is won",
    "standings.updated": "the league's standings and ratings were recomputed",
    "night.started": "an organiser starts a club night of the league (players then check in)",
    "round.started": "a round of a club night begins: its tables seated and their games started",
    "night.finished": "a club night is ended",
}
# Sent only by the "test delivery" button, to whichever endpoint it was pressed for.
TEST_EVENT = "webhook.test"


class WebhookEndpoint(models.Model):
    """An address that receives a league's events, signed with its own secret (Standard Webhooks)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list, help_text="The events sent here, e.g. [\"hand.recorded\"].")
    description = models.CharField(max_length=200, blank=True, default="")
    # ``whsec_`` and base64 of random bytes: the key each delivery is signed with.
    secret = models.CharField(max_length=100)
    is_active = models.BooleanField(default=True, help_text="A paused endpoint is sent nothing.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.url} ({self.league})"


class WebhookDelivery(models.Model):
    """One event for one endpoint, with every attempt to deliver it (the delivery log owners read)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Sending"
        RETRYING = "retrying", "Failed; will try again"
        SUCCEEDED = "succeeded", "Delivered"
        FAILED = "failed", "Failed; given up"

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    # The ``webhook-id`` header: the same on every attempt, so a receiver can tell a retry from a new event.
    message_id = models.CharField(max_length=40, unique=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField(help_text="The body sent: {type, timestamp, data}.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Each attempt: {"at", "status_code" (or null), "error", "response", "milliseconds"}, oldest first.
    attempts = models.JSONField(default=list, blank=True)
    attempt_count = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # When a sender took it (status "sending"): a sender that died leaves it to the catch-up task.
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["endpoint", "created_at"]),
            models.Index(fields=["status", "next_attempt_at"]),
        ]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint_id} ({self.status})"

    @property
    def last_attempt(self) -> dict | None:
        return self.attempts[-1] if self.attempts else None

"""How people come into a league: invitations they accept, and players they claim.

Nobody becomes a member of a league without accepting an invitation; a user becomes a league's
player only by the organiser's link or an approved claim. The rules live in ``games/services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .play import League, Membership, Player


def display_name(user) -> str:
    """What others see of a user: the display name they chose (kept in ``first_name``), never their login name.

    An account made without one (``createsuperuser``) shows as a neutral label.
    """
    if user is None:
        return ""
    return (user.first_name or "").strip() or f"User {user.pk}"


class Invitation(models.Model):
    """A way into a league with a role: a link (and its QR code) anyone may open, or one addressed to a user.

    It can be accepted ``max_uses`` times, by different people, until ``expires_at``; its owner
    may revoke it, and the user it is addressed to may decline it.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        EXPIRED = "expired", "Expired"
        USED_UP = "used_up", "Used up"
        REVOKED = "revoked", "Revoked"
        DECLINED = "declined", "Declined"

    token = models.CharField(max_length=64, unique=True)
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=16, choices=Membership.Role.choices, default=Membership.Role.MEMBER)
    # An invitation addressed to one user: only they may accept (or decline) it.
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="invitations")
    # The login name an owner addressed it to, as typed. A name with no account gets an invitation too,
    # addressed to nobody (``invitee`` empty) and never accepted: answering it like any other tells no
    # owner which login names exist.
    invitee_name = models.CharField(max_length=150, blank=True, default="")
    # The league's player the accepting user is linked to (the organiser's choice), if any.
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    max_uses = models.PositiveIntegerField(default=1)
    uses = models.PositiveIntegerField(default=0)
    # Accounts made with it where sign-up is by invitation: at most ``max_uses`` (one for a single-use
    # invitation), however many of them go on to accept it.
    accounts_made = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["league", "created_at"])]

    def __str__(self) -> str:
        return f"invitation to {self.league} as {self.role}"

    def status_at(self, moment=None) -> str:
        # (type: ignore: without type hints for Django, mypy reads a TextChoices member as its (value, label).)
        if self.revoked_at:
            return self.Status.REVOKED  # type: ignore[return-value]
        if self.declined_at:
            return self.Status.DECLINED  # type: ignore[return-value]
        if self.uses >= self.max_uses:
            return self.Status.USED_UP  # type: ignore[return-value]
        if (moment or timezone.now()) >= self.expires_at:
            return self.Status.EXPIRED  # type: ignore[return-value]
        return self.Status.OPEN  # type: ignore[return-value]

    @property
    def status(self) -> str:
        return self.status_at()

    @property
    def status_label(self) -> str:
        return self.Status(self.status).label

    @property
    def is_addressed(self) -> bool:
        """For one person (by login name) rather than a link for whoever holds it."""
        return self.invitee_id is not None or bool(self.invitee_name)

    @property
    def addressed_to(self) -> str:
        """The login name it is for ("" for a link)."""
        return self.invitee_name or (self.invitee.username if self.invitee_id else "")

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def can_make_account(self) -> bool:
        """Whether someone may sign up with it: open, a link (an addressed invitation's person has an
        account), and fewer accounts made with it than it may be accepted."""
        return self.is_open and not self.is_addressed and self.accounts_made < self.max_uses

    @property
    def uses_left(self) -> int:
        return max(self.max_uses - self.uses, 0)


class InvitationAcceptance(models.Model):
    """Who accepted an invitation, and when: one row per person (a second acceptance is refused)."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="acceptances")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["invitation", "user"], name="one_acceptance_per_user")]

    def __str__(self) -> str:
        return f"{self.user} accepted {self.invitation}"


class PlayerClaim(models.Model):
    """A user asking to be a league's player ("that's me"); the league's owners approve or decline it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        APPROVED = "approved", "Approved"
        DECLINED = "declined", "Declined"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "user"], condition=Q(status="pending"),
                                    name="one_pending_claim_per_player_and_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"

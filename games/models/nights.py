"""Club nights: many tables of a league at once, in rounds, partners changing between rounds (docs/club-night.md).

A night holds who came (``NightPlayer``, in check-in order), its rounds (``NightRound``: who sat out) and each
round's tables (``NightTable``: an ordinary game of the league, seated by the movement). Everything a night's
results say is read from those games, so a correction made after the night changes them too.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from .play import SEAT_CHOICES, Game, GameTypeField, League, Player


def new_night_code() -> str:
    """The secret in a night's codes (its check-in QR and its table cards): 128 random bits, as a link carries them."""
    return secrets.token_urlsafe(16)


class Night(models.Model):
    class Movement(models.TextChoices):
        INDIVIDUAL = "individual", "Individual: partners change every round"
        PAIRS = "pairs", "Pairs: fixed partnerships, each meeting every other pair"

    class RoundEnd(models.TextChoices):
        HANDS = "hands", "After a number of hands"
        TIME = "time", "After a time limit (the hand in play is the last)"
        TARGET = "target", "When the game reaches its target"

    class Status(models.TextChoices):
        CHECKING_IN = "checking_in", "Checking in"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="nights")
    name = models.CharField(max_length=120)
    game_type = GameTypeField()
    # The games' house rules, every option filled in (the round's end adds ``last_hand`` to each game of a round
    # that ends after a number of hands).
    options = models.JSONField()
    movement = models.CharField(max_length=12, choices=Movement.choices, default=Movement.INDIVIDUAL)
    round_end = models.CharField(max_length=8, choices=RoundEnd.choices, default=RoundEnd.HANDS)
    # A round's hands (``hands``) or minutes (``time``); neither for a round played to the target.
    hands = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # Rounds planned: the director may end the night sooner or play on.
    rounds = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CHECKING_IN)
    # Whoever holds it checks themselves in and follows the night's tables (its QR and the table cards);
    # nothing else. Renewing it ends the old one.
    code = models.CharField(max_length=32, default=new_night_code)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Changes with anything of the night but its games' hands (a check-in, a round, a substitute): the live
    # pages compare it, with the games' own, before answering 304.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["league", "-created_at"], name="night_league_recent")]

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The night as a page names it elsewhere: its name, said to be a club night unless it says so itself
        (the default name, "Club night, Thu 26 Nov 2026", or "Thursday club night")."""
        return self.name if "night" in self.name.lower() else f"Club night {self.name}"


class NightPlayer(models.Model):
    """Someone checked in to a night: one of the league's players, in check-in order (the movement seats round 1
    in that order). ``left_at``: they have gone (they are seated in no later round). ``pair``: in a pairs night,
    the number they share with their partner."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    order = models.PositiveIntegerField()
    pair = models.PositiveSmallIntegerField(null=True, blank=True)
    arrived_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    # Who checked them in (None: they did, with the night's code).
    checked_in_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")

    class Meta:
        ordering = ["night", "order"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_check_in_per_player")]

    def __str__(self) -> str:
        return f"{self.player} at {self.night}"

    @property
    def present(self) -> bool:
        return self.left_at is None


class NightRound(models.Model):
    """One round of a night: its tables, and who sat it out (player ids, in check-in order)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="night_rounds")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    # A round with a time limit: once this moment has passed, the hand in play at each table is its last.
    time_up_at = models.DateTimeField(null=True, blank=True)
    sitting_out = models.JSONField(default=list)

    class Meta:
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.night} round {self.number}"


class NightTable(models.Model):
    """A table of a round: its number in the room, and the game played there (seated by the movement; a
    substitute takes a seat in it)."""

    round = models.ForeignKey(NightRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="night_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class NightSubstitution(models.Model):
    """A player who took another's seat at a table during a round, and after how many hands: the night's trail."""

    table = models.ForeignKey(NightTable, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES)
    leaving = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    arriving = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    after_hands = models.PositiveIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.arriving} for {self.leaving} at {self.table}"

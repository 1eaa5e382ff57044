"""What Scorekeeper remembers: players, leagues, games, hands and their history.

Models hold data and constraints. Rules live in ``games/rules``; writes go through
``games/services``; nothing here scores or decides.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.rules import SEATS, RulesError, Ruleset, ruleset_class

SEAT_CHOICES = [(seat, seat) for seat in SEATS]


def game_type_name(game_type: str) -> str:
    """A game type's name as players write it (the code itself for a game no longer registered)."""
    try:
        return ruleset_class(game_type).name
    except RulesError:
        return game_type


class GameTypeField(models.CharField):
    """A game type: one of the rules engine's registered games (``games.rules.RULESETS``).

    Deliberately without ``choices``: the registry is the one list of games, so adding a game
    needs no migration. The services check a game type against it before storing one.
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 20)
        super().__init__(*args, **kwargs)


def name_key(name: str) -> str:
    """A name as compared for "is this someone we already have": case and spacing left out."""
    return " ".join(name.split()).casefold()


class Player(models.Model):
    """Someone who sits at a table. Players need no account; one may be claimed by a user (who may be a
    player in several leagues, so a user can have several players)."""

    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Changes with the name: pages and API answers that show names check it before answering 304.
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Confirmation(models.TextChoices):
    """Who confirms each recorded hand: nobody (the scorekeeper's word stands), or a player of the other side,
    Bridgemate-style (docs/table.md, "Confirming each hand")."""

    OFF = "off", "Off"
    OPPONENTS = "opponents", "The other side confirms each hand"


# How long a finished league game whose hands are not all confirmed stays out of the standings, by default.
PROVISIONAL_HOURS = 48
# A month: a finished game waits at most this long for its unconfirmed hands before entering the standings.
MAX_PROVISIONAL_HOURS = 24 * 31


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    is_public = models.BooleanField(default=True, help_text="Public leagues can be read by anyone.")
    # Default house rules per game type, e.g. {"spades": {"target": 300}}; checked by the engine.
    default_options = models.JSONField(default=dict, blank=True)
    # The league's players: the only ones its games seat. A player is on one league's roster at most (a unique
    # index on the roster's player, migration 0016): someone who plays in two leagues is a player in each.
    players = models.ManyToManyField(Player, blank=True, related_name="leagues")
    # House rule: whether the other side confirms each hand of the league's games (new games take it).
    confirmation = models.CharField(max_length=10, choices=Confirmation.choices, default=Confirmation.OFF,
                                    db_default=Confirmation.OFF)
    # A finished game with hands still unconfirmed enters the standings once this many hours have passed.
    provisional_hours = models.PositiveIntegerField(default=PROVISIONAL_HOURS, db_default=PROVISIONAL_HOURS)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def lock(cls, pk: int) -> None:
        """Lock the league's row until the transaction ends, so that writers of one league's roster, seasons and
        standings take turns (PostgreSQL; SQLite's IMMEDIATE transactions let one writer in at a time anyway).

        FOR NO KEY UPDATE, not FOR UPDATE: a row that only points at the league (an invitation, a game, a
        standings line) checks its reference with FOR KEY SHARE, which this lock lets through. Otherwise a
        transaction that locked one of the league's players and then wrote such a row would deadlock with one
        that holds the league and waits for that player (a merge). Raises ``League.DoesNotExist``.
        """
        cls.objects.select_for_update(no_key=True).only("pk").get(pk=pk)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        SCOREKEEPER = "scorekeeper", "Scorekeeper"
        MEMBER = "member", "Member"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_user")]
        ordering = ["league", "role", "user"]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.league}"


class Match(models.Model):
    """A match: several games of a type played in matches (``Ruleset.match_games``; Trumps: three games,
    partners rotating so that everyone partners everyone once)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    game_type = GameTypeField()
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.PROTECT, related_name="matches")
    # Game 1's seating, {"N": player_id, ...}; games 2 and 3 follow from it.
    seating = models.JSONField()
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    # {player_id (as text): total}; winners is a list of player ids.
    player_totals = models.JSONField(default=dict, blank=True)
    winners = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{game_type_name(self.game_type)} match #{self.pk}"

    @property
    def provisional(self) -> bool:
        """Whether one of its games is provisional (finished with hands the other side has not yet confirmed,
        its league's window not yet passed): then so is the match, out of the standings with it. Read from
        its games (prefetched, or one query)."""
        return any(game.provisional for game in self.games.all())


def new_table_token() -> str:
    """A game's table token: 128 random bits, in the characters a link carries as they are."""
    return secrets.token_urlsafe(16)


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    game_type = GameTypeField()
    # The game row is rewritten with every hand, and each of its indexes with it (``updated_at`` is in one, so no
    # update is a heap-only one): no index the others make needless. The league's and the match's lookups use
    # the indexes below that start with them.
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.PROTECT, related_name="games",
                               db_index=False)
    north = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False)
    east = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False)
    south = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False)
    west = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False)
    # Every option with its default filled in, so a game keeps its rules if defaults change later.
    options = models.JSONField()
    rules_version = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.CharField(max_length=2, blank=True, default="")
    # Cached from the stored hands (verify_games checks them against a fresh replay).
    totals = models.JSONField(default=dict)
    extras = models.JSONField(default=dict, blank=True)
    hand_count = models.PositiveIntegerField(default=0)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="games",
                              db_index=False)
    match_game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # For a casual game, users besides the creator who may keep score.
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scored_games")
    # A casual game is seen by its players and scorekeepers only, unless its creator makes it public.
    # (A league game follows its league.)
    is_public = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The secret in the table's code (its QR and share link): whoever holds it may follow this game, and
    # nothing else (``policy.game_access``). Renewing it ends the old one at once. Compared in constant time;
    # kept as it is because the scorekeeper's page shows the code again whenever it is opened. Empty for a
    # game written without one (a bulk load): it gets one when its scorekeeper first opens its table page.
    table_token = models.CharField(max_length=32, blank=True, default=new_table_token, db_default="")
    # Whether the other side confirms each hand (the league's house rule when the game began, or the casual
    # game's option). ``unconfirmed``: hands waiting for it or disputed. ``provisional``: finished with such
    # hands and its league's window not yet passed, so the standings leave it out for now.
    confirmation = models.CharField(max_length=10, choices=Confirmation.choices, default=Confirmation.OFF,
                                    db_default=Confirmation.OFF)
    unconfirmed = models.PositiveIntegerField(default=0, db_default=0)
    provisional = models.BooleanField(default=False, db_default=False)
    # A game of a club night's round with a time limit: once this moment has passed, the hand in play is the
    # game's last (its ``last_hand`` is set to that hand's number when the hand is recorded).
    time_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "match_game_number"], name="one_game_per_match_slot"),
        ]
        indexes = [
            models.Index(fields=["league", "game_type", "status"]),
            # Games by status across leagues (those still in progress are few); no ``LIKE`` index beside it.
            models.Index(fields=["status"], name="game_status"),
            # The API's sync order: games changed, or finished, after a moment (``updated_after``, ``finished_after``).
            models.Index(fields=["updated_at", "id"], name="game_sync_updated"),
            models.Index(fields=["finished_at", "id"], name="game_sync_finished"),
            # A player's games by seat, newest first (their page reads its fifty newest a seat at a time), and the
            # seat's foreign key: one index a seat, as before, which the other lookups of a seat use as well.
            *(models.Index(fields=[seat, "started_at"], name=f"game_{seat}_started") for seat in
              ("north", "east", "south", "west")),
        ]

    def __str__(self) -> str:
        return f"{game_type_name(self.game_type)} #{self.pk}"

    SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}

    @property
    def seats(self) -> dict[str, Player]:
        return {seat: getattr(self, name) for seat, name in self.SEAT_FIELDS.items()}

    @property
    def seat_ids(self) -> dict[str, int]:
        return {seat: getattr(self, f"{name}_id") for seat, name in self.SEAT_FIELDS.items()}

    @property
    def first_dealer(self) -> str:
        return self.options.get("first_dealer", "N")

    @property
    def game_type_name(self) -> str:
        return game_type_name(self.game_type)

    def time_is_up(self, now) -> bool:
        """Whether the game's time limit has passed with its last hand not yet set: the hand in play is its last."""
        return self.time_up_at is not None and now >= self.time_up_at and self.options.get("last_hand") is None

    def end_after(self, last_hand: int) -> None:
        """Make hand ``last_hand`` the game's last (an option of every game: the side ahead after it wins). The
        caller stores the options."""
        self.options = {**self.options, "last_hand": last_hand}
        self.__dict__.pop("_ruleset", None)

    @property
    def ruleset(self) -> Ruleset:
        """The game's rules under its stored options and rules version (made once per instance)."""
        cached = self.__dict__.get("_ruleset")
        if cached is None:
            cached = self.__dict__["_ruleset"] = ruleset_class(self.game_type)(self.options,
                                                                               rules_version=self.rules_version)
        return cached


# Where a hand of a game with confirmation stands (``Hand.check_state``; empty in other games).
HAND_CHECK_STATES = ("waiting", "confirmed", "disputed", "kept")


class Hand(models.Model):
    """One hand as the scorekeeper entered it, and as the engine scored it."""

    # No index of its own: the (game, number) constraint's index serves every look-up by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveIntegerField()
    record = models.JSONField()
    dealer = models.CharField(max_length=1, choices=SEAT_CHOICES)
    delta = models.JSONField()
    totals = models.JSONField()
    extras = models.JSONField(default=dict, blank=True)
    details = models.JSONField(default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    # In a game whose hands the other side confirms: where this one stands (empty in other games), and the
    # side of whoever entered it, which cannot confirm it (empty: a scorekeeper not seated at the table).
    check_state = models.CharField(max_length=10, choices=[("", "Not asked"), *[(state, state) for state in
                                                                              HAND_CHECK_STATES]],
                                   blank=True, default="", db_default="")
    entered_side = models.CharField(max_length=4, blank=True, default="", db_default="")

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number")]
        # The API's sync order: hands entered or corrected after a moment (``updated_after``).
        indexes = [models.Index(fields=["updated_at", "id"], name="hand_sync_updated")]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number}"

    @property
    def version(self) -> str:
        """A short tag that changes whenever this hand is written: entered, corrected, or re-scored by a
        correction of an earlier hand (and a hand entered again after an undo is a new row). Compared
        before a change so that a correction made from a stale copy is refused rather than overwriting."""
        stamp = f"{self.pk}:{self.updated_at.isoformat()}"
        return hashlib.sha256(stamp.encode()).hexdigest()[:20]


class HandRevision(models.Model):
    """A correction or an undo: the record before the change, who made it, when and why."""

    class Action(models.TextChoices):
        CORRECT = "correct", "Correction"
        UNDO = "undo", "Undo"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    previous_record = models.JSONField()
    new_record = models.JSONField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["game", "number", "changed_at", "id"]
        indexes = [models.Index(fields=["game", "number"])]

    def __str__(self) -> str:
        return f"{self.get_action_display()} of {self.game} hand {self.number}"


class HandCheck(models.Model):
    """A hand confirmed by the other side, disputed (with what they say it was), or kept by the scorekeeper with
    a note after a dispute: the confirmation trail, beside the corrections'. Goes with its hand (an undo)."""

    class Action(models.TextChoices):
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        KEPT = "kept", "Kept after a dispute"

    class Via(models.TextChoices):
        ACCOUNT = "account", "their own phone, signed in"
        CODE = "code", "their own phone, with the table's code"
        HANDED = "handed", "the scorekeeper's phone, handed across"
        CORRECTION = "correction", "the correction they asked for"
        SCOREKEEPER = "scorekeeper", "the scorekeeper"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="checks")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES, blank=True, default="")
    via = models.CharField(max_length=12, choices=Via.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    # The hand's version that was confirmed or disputed (a correction makes a new one to confirm).
    hand_version = models.CharField(max_length=20)
    # A dispute: the hand as the disputing side says it was.
    record = models.JSONField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True, default="")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["hand", "at", "id"]
        indexes = [models.Index(fields=["game", "number"])]
        constraints = [
            # Two phones confirming the same version of a hand at once confirm it once.
            models.UniqueConstraint(fields=["hand", "hand_version"], condition=models.Q(action="confirmed"),
                                    name="one_confirmation_per_hand_version"),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.game} hand {self.number}"


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an idempotency key, so a retry gets it back instead of a second write.

    A key belongs to a user and a ``scope``: what it was used for (``game:5:hands`` for recording hands in
    game 5, ``games`` for starting games...). The answer is stored in the same transaction as the write
    (``games.idempotency``), so the two are committed together or not at all.
    """

    # No index of its own: the (user, scope, key) constraint's index serves every look-up by user.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False)
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    result = models.JSONField()
    # The game the write concerned, if any: its keys go when it does.
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "scope", "key"], name="one_answer_per_key")]

    def __str__(self) -> str:
        return f"{self.key} ({self.scope})"

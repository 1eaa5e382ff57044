"""What the standings task stores: league tables, ratings, rating history and player figures.

Every row here is derived: ``games.standings.services`` computes a league's rows from its
finished games and their hands, either recomputing them all (deleting the old rows and inserting
the new ones) or bringing them up to date with the games noted as changed (``ChangedResult``).
``StandingsWatermark`` and ``CountedResult`` record what the rows count. Nothing else writes these
tables (the services only add notes), and they can always be rebuilt (``manage.py rebuild_standings``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from .play import Game, GameTypeField, League, Match, Player
from .seasons import Season

# All-time rows have no season; a season's rows name it. Each row is unique within its scope, so every
# unique constraint comes twice: once for the all-time rows, once (keyed by the season) for a season's.
ALL_TIME = Q(season__isnull=True)
IN_A_SEASON = Q(season__isnull=False)


def season_field() -> models.ForeignKey:
    """The season a row counts (null: all time). Indexed by the constraints that start with it."""
    return models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             db_index=False)


class Standing(models.Model):
    """One line of a league table: a player (``partner`` empty) or a partnership, in one game type.

    A partnership is an unordered pair, stored with the lower player id in ``player``.
    """

    # Indexed by the constraints and indexes below, which start with it (one index fewer to keep up).
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = season_field()
    game_type = GameTypeField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    win_rate = models.FloatField(default=0.0)
    points_for = models.BigIntegerField(default=0)
    points_against = models.BigIntegerField(default=0)
    average_margin = models.FloatField(default=0.0)
    # "W3": won the last three; "L1": lost the last one; empty before any game.
    streak = models.CharField(max_length=12, blank=True, default="")
    last_played = models.DateTimeField(null=True, blank=True)
    # Trumps matches, per player only.
    matches_played = models.PositiveIntegerField(default=0)
    matches_won = models.PositiveIntegerField(default=0)
    match_points = models.BigIntegerField(default=0)
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "game_type", "player"], condition=Q(partner__isnull=True) & ALL_TIME,
                name="one_standing_per_player",
            ),
            models.UniqueConstraint(
                fields=["league", "game_type", "player", "partner"], condition=Q(partner__isnull=False) & ALL_TIME,
                name="one_standing_per_partnership",
            ),
            models.UniqueConstraint(
                fields=["season", "game_type", "player"], condition=Q(partner__isnull=True) & IN_A_SEASON,
                name="one_season_standing_per_player",
            ),
            models.UniqueConstraint(
                fields=["season", "game_type", "player", "partner"],
                condition=Q(partner__isnull=False) & IN_A_SEASON, name="one_season_standing_per_partnership",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | Q(player__lt=F("partner")),
                name="partnership_stored_lower_id_first",
            ),
        ]
        # Each table in its order (games won, win rate, average margin; the names break ties): a page of a table
        # is read from its index, not sorted out of the whole table. All-time rows and a season's apart, so that
        # the index's leading columns are all compared for equality (``season IS NULL`` is not one).
        indexes = [
            models.Index(fields=["league", "game_type", "-won", "-win_rate", "-average_margin"],
                         condition=Q(partner__isnull=True) & ALL_TIME, name="players_in_order"),
            models.Index(fields=["league", "game_type", "-won", "-win_rate", "-average_margin"],
                         condition=Q(partner__isnull=False) & ALL_TIME, name="partnerships_in_order"),
            models.Index(fields=["season", "game_type", "-won", "-win_rate", "-average_margin"],
                         condition=Q(partner__isnull=True) & IN_A_SEASON, name="season_players_in_order"),
            models.Index(fields=["season", "game_type", "-won", "-win_rate", "-average_margin"],
                         condition=Q(partner__isnull=False) & IN_A_SEASON, name="season_partnerships_in_order"),
        ]

    def __str__(self) -> str:
        who = f"{self.player_id}+{self.partner_id}" if self.partner_id else str(self.player_id)
        return f"{self.game_type} standing of {who} in league {self.league_id}"


class PlayerRating(models.Model):
    """A player's OpenSkill rating in one league and game type, after every rated result there."""

    # Indexed by the constraints and indexes below, which start with it (one index fewer to keep up).
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = season_field()
    game_type = GameTypeField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    # The conservative skill figure shown to players: mu - 3 sigma.
    ordinal = models.FloatField()
    # 1 for the highest ordinal in the league and game type; equal ordinals share a rank.
    rank = models.PositiveIntegerField()
    rated = models.PositiveIntegerField(default=0, help_text="How many results the rating learned from.")
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "game_type", "player"], condition=ALL_TIME,
                                    name="one_rating_per_player"),
            models.UniqueConstraint(fields=["season", "game_type", "player"], condition=IN_A_SEASON,
                                    name="one_season_rating_per_player"),
        ]
        indexes = [
            models.Index(fields=["league", "game_type", "rank"]),
            models.Index(fields=["player"]),
        ]

    def __str__(self) -> str:
        return f"{self.game_type} rating of player {self.player_id} in league {self.league_id}"


class RatingChange(models.Model):
    """A player's rating just after one rated result: a game, or a whole Trumps match."""

    # The history is the largest standings table: besides its key, two indexes (by league and game type, for
    # the standings task; by player, for a player's page) keep it up to date cheaply; the results it points
    # at need none (a game or match deleted, rare, finds its points without one).
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = season_field()
    game_type = GameTypeField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    # Position of the result in the league's game order for this game type (1, 2, ...).
    sequence = models.PositiveIntegerField()
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                              db_index=False)
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["league", "game_type", "player", "sequence"]
        indexes = [models.Index(fields=["player", "league", "game_type", "sequence"]),
                   models.Index(fields=["league", "game_type", "sequence"]),
                   models.Index(fields=["season", "game_type", "sequence"], condition=IN_A_SEASON,
                                name="rating_changes_of_a_season")]

    def __str__(self) -> str:
        return f"rating of player {self.player_id} after {self.game_type} result {self.sequence}"


class PlayerFigures(models.Model):
    """A player's counts from every hand of the league's finished games of one type.

    ``counts`` holds the game's own figures (Spades: bids, bids_made, nils, nils_made,
    blind_nils, blind_nils_made, bags): the names its ruleset lists in ``figure_counts``.
    """

    # Indexed by the constraints and indexes below, which start with it (one index fewer to keep up).
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = season_field()
    game_type = GameTypeField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    hands = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "player figures"
        constraints = [
            models.UniqueConstraint(fields=["league", "game_type", "player"], condition=ALL_TIME,
                                    name="one_figures_per_player"),
            models.UniqueConstraint(fields=["season", "game_type", "player"], condition=IN_A_SEASON,
                                    name="one_season_figures_per_player"),
        ]
        indexes = [models.Index(fields=["player"])]

    def __str__(self) -> str:
        return f"{self.game_type} figures of player {self.player_id} in league {self.league_id}"


class Watermark(models.Model):
    """What a scope's stored standings were computed from: how many results, and the last in game order.

    The results themselves, each with the fingerprint it had when it was counted, are the scope's
    :class:`CountedResult` rows; the update compares them with the scope's finished results to
    find what is new, changed or gone.
    """

    games = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    # The last result counted, in game order: (finished_at, 0 for a game or 1 for a match, id).
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_kind = models.PositiveSmallIntegerField(default=0)
    last_id = models.BigIntegerField(default=0)
    # Rated results so far per game type ({"spades": 812, ...}): the next RatingChange.sequence - 1.
    sequences = models.JSONField(default=dict, blank=True)
    # Game types whose ratings are still to be learned again, each from a result on (in game order):
    # {"spades": ["2026-03-05T19:30:00+00:00", 0, 812]}. The tables are right; the ratings follow.
    ratings_from = models.JSONField(default=dict, blank=True)
    # How many lines each table has, per game type: {"spades": [220, 21169]} (players, partnerships), so that a
    # page of the standings says how long its tables are without counting them.
    table_sizes = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField()

    class Meta:
        abstract = True


class StandingsWatermark(Watermark):
    """The watermark of a league's all-time standings."""

    league = models.OneToOneField(League, primary_key=True, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"standings watermark of league {self.league_id}"


class SeasonWatermark(Watermark):
    """The watermark of a season's standings. A season without one (new, or its dates just changed) is
    recomputed by the league's next update."""

    season = models.OneToOneField(Season, primary_key=True, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"standings watermark of season {self.season_id}"


class CountedResult(models.Model):
    """A finished game or Trumps match that a league's stored standings count, as it was when counted.

    ``fingerprint`` is made of what a change to the result changes (for a game: id, ``updated_at``,
    winner, hand count, match; for a match: its row), so a correction or an undo (which saves the
    game) shows as a different fingerprint, and a result no longer finished as a missing one.
    ``finished_at`` (the start, for a result that never recorded its finish) and ``kind`` place the
    result in game order. ``placing`` is what the ratings learned from it (``{"teams": [[3, 8], [5, 1]],
    "places": [0, 1]}``; empty for a result not rated on its own), so that they can be learned again from
    these rows alone; ``figures`` what its hands added to its players' figures.
    """

    class Kind(models.IntegerChoices):
        GAME = 0, "game"
        MATCH = 1, "match"

    # Indexed by the constraints and indexes below, which start with it (one index fewer to keep up).
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = season_field()
    kind = models.PositiveSmallIntegerField(choices=Kind.choices)
    result_id = models.BigIntegerField()
    game_type = GameTypeField()
    finished_at = models.DateTimeField()
    fingerprint = models.TextField()
    placing = models.JSONField(null=True, blank=True)
    # What the game's hands added to its players' figures, per seat: {"hands": 14, "N": {"bids": 14, ...}, ...}
    # (a match: empty), so that a changed game's part can be taken away again without reading its players' games.
    figures = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "kind", "result_id"], condition=ALL_TIME,
                                    name="one_count_per_result"),
            models.UniqueConstraint(fields=["season", "kind", "result_id"], condition=IN_A_SEASON,
                                    name="one_season_count_per_result"),
        ]
        # In game order: the ratings learned again from a result on, and the last result counted.
        indexes = [
            models.Index(fields=["league", "finished_at"], condition=ALL_TIME, name="counted_in_order"),
            models.Index(fields=["season", "finished_at"], condition=IN_A_SEASON, name="season_counted_in_order"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.result_id} counted in league {self.league_id}"


class ChangedResult(models.Model):
    """A league game whose result may have changed since the league's standings last counted it: it finished,
    or a finished game was corrected or undone. Noted in the transaction that changed the game, so that the
    note exists exactly when the change does; the league's next standings update reads the notes (not every
    result of the league), brings the rows up to date with those games (and their matches) and deletes them.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    # Not a foreign key: the note outlives a game deleted since (the update then takes it out of the rows).
    game_id = models.BigIntegerField()
    noted_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"game {self.game_id} changed in league {self.league_id}"

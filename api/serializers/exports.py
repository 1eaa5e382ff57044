"""Query parameters for following changes and for CSV tables; league backups and restores."""

from __future__ import annotations

from rest_framework import serializers

from api.sync import Moment

from .common import JSONObject, QueryFilter, QueryId, Strict, Text
from .games import GameFilter, HandOut
from .people import LeagueOut
from .standings import StandingsFilter

SYNC_HELP = ("A moment (ISO 8601, e.g. 2026-03-05T19:30:00Z), exclusive. With it the answer is a cursor page "
             "in that order, oldest first.")


class GameSyncFilter(GameFilter):
    """Query parameters of the game list, with the ones for following changes."""

    updated_after = Moment(required=False, help_text="Games changed after this moment (a hand recorded, "
                                                     "corrected or undone, or the game finished or abandoned). "
                                                     + SYNC_HELP)
    finished_after = Moment(required=False, help_text="Games finished after this moment. " + SYNC_HELP)
    cursor = serializers.CharField(required=False, max_length=300,
                                   help_text="From a previous answer's `next`: the page after it.")


class HandSyncFilter(QueryFilter):
    league = QueryId(required=False)
    game = QueryId(required=False)
    updated_after = Moment(required=False, help_text="Hands entered or corrected after this moment. " + SYNC_HELP)
    cursor = serializers.CharField(required=False, max_length=300,
                                   help_text="From a previous answer's `next`: the page after it.")


class HandFeedOut(HandOut):
    game = serializers.IntegerField(source="game_id", help_text="The hand's game.")

    class Meta(HandOut.Meta):
        fields = ["game", *HandOut.Meta.fields]


class StandingsTableFilter(StandingsFilter):
    table = serializers.ChoiceField(
        choices=["players", "partnerships"], required=False, default="players",
        help_text="CSV only: the players' lines (default) or the partnerships'.")


class LeagueImportIn(Strict):
    document = JSONObject(help_text="A league backup (docs/league-backup.schema.json).")
    name = Text(max_length=120, required=False, allow_blank=True, default="",
                help_text="The new league's name (default: the backup's).")
    slug = Text(max_length=80, required=False, allow_blank=True, default="",
                help_text="Its address (default: the backup's if free, else one made from the name).")


class LeagueImportQuery(QueryFilter):
    """``leagues/imports/``'s query parameters: the body is the backup itself."""

    name = Text(max_length=120, required=False, help_text="The new league's name (default: the backup's).")
    slug = Text(max_length=80, required=False,
                help_text="Its address (default: the backup's if free, else one made from the name).")


class ImportReportOut(serializers.Serializer):
    players = serializers.IntegerField()
    seasons = serializers.IntegerField(help_text="The league's seasons, from the backup's.")
    games = serializers.IntegerField()
    finished = serializers.IntegerField()
    in_progress = serializers.IntegerField()
    abandoned = serializers.IntegerField()
    hands = serializers.IntegerField()
    matches = serializers.IntegerField()
    nights = serializers.IntegerField(help_text="The league's club nights, from the backup's.")
    game_types = serializers.DictField(child=serializers.IntegerField(), help_text="Games per game type (by name).")
    summary = serializers.CharField(help_text="The same, in a sentence.")


class LeagueImportOut(serializers.Serializer):
    league = LeagueOut()
    report = ImportReportOut()


class RestoreProgressOut(serializers.Serializer):
    games = serializers.IntegerField(allow_null=True, help_text="The backup's games: null until they are counted.")
    checked = serializers.IntegerField(help_text="Games checked (and re-scored) so far.")
    written = serializers.IntegerField(help_text="Games written so far (once every game passed its checks).")
    bytes = serializers.IntegerField(help_text="The backup's size.")
    bytes_checked = serializers.IntegerField(help_text="How far into the backup the check of its games has read.")


class LeagueRestoreOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="This restore (`leagues/imports/{id}/`).")
    state = serializers.ChoiceField(
        choices=["queued", "checking", "writing", "done", "refused", "failed"],
        help_text="queued, then checking (every game re-scored, nothing stored), then writing (in one transaction), "
                  "then done; or refused (a problem in the backup: nothing was stored), or failed (an error of "
                  "the server: nothing was stored).")
    progress = RestoreProgressOut()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    league = LeagueOut(allow_null=True, help_text="Done: the new league.")
    report = ImportReportOut(allow_null=True, help_text="Done: what was imported.")
    problems = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                     help_text="Refused: every problem, as a 400 of `leagues/import/` lists them "
                                               "under `document` (up to 20, then how many more).")

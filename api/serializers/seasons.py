"""A league's seasons: named date ranges, each with its own standings (docs/standings.md, "Seasons")."""

from __future__ import annotations

import re

from rest_framework import serializers

from games.models import Season

from .common import JSONBoolean, QueryFilter, Strict, StringsOnly, Text

SEASON_HELP = ("Which standings: a season's id, `all` (every result of the league) or `current` (the season "
               "containing today); a season the league does not have is a 404. ")
SEASON_PATTERN = r"^(all|current|[1-9][0-9]{0,17})$"
SEASON_TEXT = re.compile(SEASON_PATTERN)


class SeasonChoice(Text):
    """``?season=``: a season's id, ``all`` or ``current``."""

    pattern = SEASON_PATTERN
    default_error_messages = {"not_a_season": 'give a season\'s id, "all" or "current"'}

    def __init__(self, **kwargs):
        super().__init__(max_length=24, **kwargs)
        self.validators.append(self.check_season)

    def check_season(self, text: str) -> None:
        if not SEASON_TEXT.fullmatch(text):
            self.fail("not_a_season")


class Day(StringsOnly, serializers.DateField):
    """A date written YYYY-MM-DD (a JSON string)."""


class SeasonIn(Strict):
    name = Text(max_length=80, help_text="Unique in the league, whatever the case, e.g. `Autumn 2026`.")
    starts_on = Day(required=False, help_text="Its first day. Left out: the next season, starting the day after "
                                              "the league's latest season ends (an open latest season is closed "
                                              "first, on `close_previous_on`), or today if that is later.")
    ends_on = Day(required=False, allow_null=True, help_text="Its last day; null or left out: open (it runs on "
                                                             "until it is closed).")
    close_previous_on = Day(required=False, help_text="Starting the next season (no `starts_on`): the last day of "
                                                      "the open season it follows (today unless given).")


class SeasonUpdate(Strict):
    name = Text(max_length=80, required=False)
    starts_on = Day(required=False)
    ends_on = Day(required=False, allow_null=True, help_text="Its last day; null opens it again.")
    close = JSONBoolean(required=False, default=False,
                        help_text="true closes the season: it ends on `ends_on` if given, else today. A season "
                                  "already closed is a 409.")


class SeasonOut(serializers.ModelSerializer):
    is_current = serializers.BooleanField(help_text="Whether its dates contain today (the project's time zone).")
    is_closed = serializers.BooleanField(help_text="Whether it has an end (`ends_on`).")

    class Meta:
        model = Season
        fields = ["id", "league", "name", "starts_on", "ends_on", "is_current", "is_closed", "created_at"]


class SeasonRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    is_current = serializers.BooleanField()


class SeasonFilter(QueryFilter):
    season = SeasonChoice(required=False, help_text=SEASON_HELP + "Without it: all time.")

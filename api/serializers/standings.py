"""League standings, player ratings and player figures: the response bodies.

The bodies are the plain dicts of ``games.standings.selectors`` (see docs/standings.md for what
each figure means); these serializers only give them their documented shape. A page of the standings is built in
that shape and sent as it is (``LeagueStandingsOut`` documents it; a test holds the two equal), its hundreds of
lines not passed through the fields again.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.rules import rulesets

from .common import PlayerRef, QueryFilter, QueryId
from .games import GameType
from .seasons import SEASON_HELP, SeasonChoice, SeasonRef


class StandingsFilter(QueryFilter):
    """Query parameters of the standings."""

    game_type = GameType(
        required=False,
        help_text="Only this game type's tables (listed even if empty). Without it: every game type "
                  "the league has results in.",
    )
    page = serializers.IntegerField(required=False, min_value=1, max_value=10**6, default=1,
                                    help_text="Which page of every table: lines (page − 1) × page_size + 1 on.")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=100, default=50,
                                         help_text="Lines of each table on a page (50 unless given, at most 100).")
    season = SeasonChoice(required=False, help_text=SEASON_HELP + "Without it: the current season, or all time "
                                                                  "if no season contains today.")


class LeagueRef(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()


class RatingOut(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill mean skill (25 for a new player).")
    sigma = serializers.FloatField(help_text="OpenSkill uncertainty (25/3 for a new player).")
    ordinal = serializers.FloatField(help_text="The conservative skill shown to players: mu − 3·sigma.")
    rank = serializers.IntegerField(min_value=1, help_text="1 is the highest ordinal in the league and game "
                                                           "type; equal ordinals share a rank.")
    rated = serializers.IntegerField(min_value=0, help_text="How many results the rating learned from.")


@extend_schema_field({"type": "string", "pattern": "^([WL][1-9][0-9]*)?$",
                      "description": 'The run of equal results at the end: "W3" won the last three, "L1" lost '
                                     'the last one; empty before any game.'})
class Streak(serializers.CharField):
    pass


class ResultsOut(serializers.Serializer):
    """The figures every line of a table has."""

    place = serializers.IntegerField(min_value=1, help_text="The line's position in its table's order (1 is "
                                                            "first), whatever page it is on.")
    played = serializers.IntegerField(min_value=0)
    won = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)
    win_rate = serializers.FloatField(min_value=0, max_value=1, help_text="won / played")
    points_for = serializers.IntegerField(help_text="Sum of the final totals of the player's side.")
    points_against = serializers.IntegerField(help_text="Sum of the best opponent's final totals.")
    average_margin = serializers.FloatField(help_text="(points_for − points_against) / played")
    streak = Streak()
    last_played = serializers.DateTimeField(allow_null=True, help_text="When the last counted game finished.")


class MatchesOut(serializers.Serializer):
    played = serializers.IntegerField(min_value=0)
    won = serializers.IntegerField(min_value=0, help_text="Co-winners of a tied match each win it.")
    points = serializers.IntegerField(help_text="The sum of the player's match totals.")


class PlayerStandingOut(ResultsOut):
    """A player's line: results, rating, and (Trumps) matches."""

    player = PlayerRef()
    rating = RatingOut(allow_null=True, help_text="null if the player has no rating in this game type.")
    matches = MatchesOut(allow_null=True, help_text="Matches (game types played in matches, i.e. Trumps; null in "
                                                    "other games).")


class PartnershipStandingOut(ResultsOut):
    """A partnership's line: two players who sat on the same side."""

    players = serializers.ListField(child=PlayerRef(), min_length=2, max_length=2,
                                    help_text="The pair, whatever seats they sat in.")


class GameTypeTableOut(serializers.Serializer):
    game_type = GameType()
    name = serializers.CharField()
    players = PlayerStandingOut(many=True, help_text="Ordered by games won, then win rate, then average margin, "
                                                     "then name; this page's lines of the table.")
    partnerships = PartnershipStandingOut(many=True, help_text="Same order; none in cutthroat Spades.")


class TableSizesOut(serializers.Serializer):
    players = serializers.IntegerField(min_value=0, help_text="Lines in the players' table.")
    partnerships = serializers.IntegerField(min_value=0, help_text="Lines in the partnerships' table.")


class LeagueStandingsOut(serializers.Serializer):
    league = LeagueRef()
    season = SeasonRef(allow_null=True, help_text="The season these tables count; null: every result of the league.")
    computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the tables were last computed; null if they have not been yet (a "
                                   "worker may still be updating them).")
    game_types = GameTypeTableOut(many=True)
    page = serializers.IntegerField(min_value=1)
    page_size = serializers.IntegerField(min_value=1)
    sizes = serializers.DictField(child=TableSizesOut(), help_text="Per game type listed: how long each table is.")
    next = serializers.URLField(allow_null=True, help_text="The next page, if any table goes on past this one.")
    previous = serializers.URLField(allow_null=True, help_text="The page before, if this is not the first.")


# --- a player's ratings and figures ------------------------------------------------------------------


class RatingPointOut(serializers.Serializer):
    sequence = serializers.IntegerField(min_value=1, help_text="Position of the result in the league's order.")
    played_at = serializers.DateTimeField()
    game = serializers.IntegerField(allow_null=True, help_text="The game rated (null for a Trumps match).")
    match = serializers.IntegerField(allow_null=True, help_text="The Trumps match rated as a whole, or null.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PlayerRatingOut(RatingOut):
    league = LeagueRef()
    season = SeasonRef(allow_null=True, help_text="The season this rating learned from (fresh at its start); null: "
                                                  "all time.")
    game_type = GameType()


class PlayerRatingHistoryOut(PlayerRatingOut):
    history = RatingPointOut(many=True, help_text="The rating after each rated result, oldest first.")


COUNTS_HELP = "Per game type: " + "; ".join(
    f"{ruleset.game_type}: {', '.join(ruleset.figure_counts)}" for ruleset in rulesets()
) + " (docs/standings.md)."
RATES_HELP = "; ".join(
    f"{ruleset.name}: {', '.join(rate.name for rate in ruleset.figure_rates)}" for ruleset in rulesets()
) + ". null when there is nothing to divide by."


class PlayerFiguresOut(serializers.Serializer):
    league = LeagueRef()
    season = SeasonRef(allow_null=True, help_text="The season these figures count; null: all time.")
    game_type = GameType()
    hands = serializers.IntegerField(min_value=0, help_text="Hands played in the league's finished games.")
    counts = serializers.DictField(child=serializers.IntegerField(), help_text=COUNTS_HELP)
    rates = serializers.DictField(child=serializers.FloatField(allow_null=True), help_text=RATES_HELP)


# --- a player's head-to-head and partner records -----------------------------------------------------


class PlayerRecordsFilter(QueryFilter):
    """Query parameters of a player's records."""

    league = QueryId(required=False, help_text="Only this league's games. Without it: every league you may see, "
                                               "and the casual games you may see.")
    game_type = GameType(required=False, help_text="Only this game type (listed even if empty). Without it: every "
                                                   "game type the player has results in, each apart.")
    finished_from = serializers.DateField(required=False, help_text="Only games finished on or after this day.")
    finished_until = serializers.DateField(required=False, help_text="Only games finished on or before this day.")

    def validate(self, attrs):
        start, end = attrs.get("finished_from"), attrs.get("finished_until")
        if start is not None and end is not None and end < start:
            raise serializers.ValidationError({"finished_until": ["must be on or after finished_from"]})
        return attrs


class RecordOut(serializers.Serializer):
    """The player's results with one partner, or against one opponent."""

    player = PlayerRef(help_text="The partner or opponent.")
    played = serializers.IntegerField(min_value=1)
    won = serializers.IntegerField(min_value=0, help_text="Games the player's side won.")
    lost = serializers.IntegerField(min_value=0, help_text="played − won (in cutthroat Spades a game won by a third "
                                                           "player is lost against both the others).")
    win_rate = serializers.FloatField(min_value=0, max_value=1, help_text="won / played")
    points_for = serializers.IntegerField(help_text="Sum of the final totals of the player's side.")
    points_against = serializers.IntegerField(
        help_text="With a partner: sum of the best other side's final totals; against an opponent: of the "
                  "opponent's side's.")
    average_margin = serializers.FloatField(help_text="(points_for − points_against) / played")


class GameTypeRecordsOut(serializers.Serializer):
    game_type = GameType()
    name = serializers.CharField()
    played = serializers.IntegerField(min_value=0, help_text="The player's finished games counted.")
    won = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)
    partners = RecordOut(many=True, help_text="Everyone who sat on the player's side, most games together first "
                                              "(then most won, then id); none in cutthroat Spades.")
    opponents = RecordOut(many=True, help_text="Everyone who sat on another side, in the same order.")
    best_partnership = RecordOut(allow_null=True, help_text="The partner with the highest win rate among those with "
                                                            "at least `minimum_games` together (ties: more games, "
                                                            "higher margin, lower id); null if none qualifies.")
    worst_partnership = RecordOut(allow_null=True, help_text="The lowest win rate among the others that qualify "
                                                             "(ties: more games, lower margin, lower id); null "
                                                             "unless two partnerships qualify.")


class RecordsFiltersOut(serializers.Serializer):
    league = serializers.IntegerField(allow_null=True)
    game_type = GameType(allow_null=True)
    finished_from = serializers.DateField(allow_null=True)
    finished_until = serializers.DateField(allow_null=True)


class PlayerRecordsOut(serializers.Serializer):
    player = PlayerRef()
    filters = RecordsFiltersOut(help_text="The filters applied (null: not given).")
    minimum_games = serializers.IntegerField(min_value=1, help_text="Games together before a partnership can be "
                                                                    "the best or the worst.")
    game_types = GameTypeRecordsOut(many=True, help_text="In the order games are listed.")

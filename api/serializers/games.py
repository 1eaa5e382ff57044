"""Games, hands, revisions and matches: request shapes and response bodies."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import SEAT_CHOICES, Confirmation, Game, Hand, HandCheck, HandRevision, display_name
from games.models.play import HAND_CHECK_STATES
from games.rules import RULESETS, rulesets
from games.summary import GameSummary, game_needs, game_summary, hand_explanation, player_names

from .common import Id, JSONObject, QueryFilter, QueryId, SeatsIn, SeatsOut, Strict, Text, json_problem

STATUSES = Game.Status.choices
SEATS = SEAT_CHOICES


def scores(help_text: str, **kwargs) -> serializers.DictField:
    return serializers.DictField(child=serializers.IntegerField(), help_text=help_text, **kwargs)


@extend_schema_field({"type": "string", "pattern": "^[NESW]$", "description": "A seat: N, E, S or W."})
class Seat(serializers.ChoiceField):
    """A seat. (Described by a pattern, not an enum, so the schema has one enum for seats: ``dealer``.)"""

    def __init__(self, **kwargs):
        super().__init__(choices=SEATS, **kwargs)


def game_type_schema(game_types: list[str], description: str) -> dict:
    return {"type": "string", "enum": game_types, "description": description}


@extend_schema_field(game_type_schema(list(RULESETS), "A game type: one of the registered games."))
class GameType(serializers.CharField):
    """A registered game type (``games.rules.RULESETS``); with ``in_matches``, one played in matches."""

    def __init__(self, *, in_matches: bool = False, **kwargs):
        self.in_matches = in_matches
        super().__init__(**kwargs)

    def allowed(self) -> list[str]:
        return [ruleset.game_type for ruleset in rulesets() if ruleset.match_games or not self.in_matches]

    def to_internal_value(self, data):
        value = data if isinstance(data, str) else None
        allowed = self.allowed()
        if value not in allowed:
            what = "game type played in matches" if self.in_matches else "game type"
            raise serializers.ValidationError(f"unknown {what} {data}; choose one of {', '.join(allowed)}")
        return value


# --- games -----------------------------------------------------------------------------------------


class GameIn(Strict):
    game_type = GameType()
    league = Id(required=False, allow_null=True, default=None, help_text="A league id, or null for a casual game.")
    seats = SeatsIn()
    options = JSONObject(required=False, default=dict,
                         help_text="House-rule options, as listed for the game in docs/rules/<game>.md; left out "
                                   "ones take the league's or the default.")
    first_dealer = Seat(required=False)
    confirmation = serializers.ChoiceField(
        choices=Confirmation.choices, required=False,
        help_text="`opponents`: a player of the other side confirms each hand (docs/api.md, \"Confirming "
                  "hands\"); `off`. Left out: the league's house rule (off for a casual game).")


class GameFilter(QueryFilter):
    """Query parameters of the game list."""

    league = QueryId(required=False)
    player = QueryId(required=False, help_text="Games this player sat in.")
    game_type = GameType(required=False)
    status = serializers.ChoiceField(choices=STATUSES, required=False)
    started_on = serializers.DateField(required=False, help_text="Started on this day (UTC).")
    started_after = serializers.DateField(required=False, help_text="Started on or after this day (UTC).")
    started_before = serializers.DateField(required=False, help_text="Started before this day (UTC).")


def extras_schema(description: str) -> dict:
    return {"type": "object", "description": description,
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}}}


# --- every number in words (games.rules.explaining) --------------------------------------------------


class TermOut(serializers.Serializer):
    rule = serializers.CharField(help_text="The rule, a stable word: `contract`, `set`, `overtricks`, `nil`, "
                                           "`blind_nil`, `bag_penalty`, `points`, `smudge`, `face_cards`, "
                                           "`trump_stack` (docs/api.md).")
    points = serializers.IntegerField(help_text="What the rule gave the side on this hand (negative: took away).")
    words = serializers.CharField(help_text="What the points were for, e.g. `1 overtrick`, `Ann's failed nil`.")


class ExplanationPartOut(serializers.Serializer):
    side = serializers.CharField(allow_null=True, help_text="The side this clause scores for; null for what "
                                                            "happened in the hand.")
    points = serializers.IntegerField(allow_null=True, help_text="The side's change on the hand (the sum of "
                                                                 "`terms`); null for what happened.")
    text = serializers.CharField(help_text="The clause in words.")
    terms = TermOut(many=True, help_text="The rules that add up to `points`.")


class ExplanationOut(serializers.Serializer):
    """A hand's score in words, from the game's rules."""

    text = serializers.CharField(help_text="The whole sentence, e.g. `NS bid 4 and took 5: 40 + 1 overtrick = "
                                           "41; 1 bag, 3 in all; EW bid 8 and took 8: 80`.")
    parts = ExplanationPartOut(many=True, help_text="Its clauses, in order.")


class NeedOut(serializers.Serializer):
    side = serializers.CharField(allow_null=True, help_text="The side; null for the game as a whole.")
    what = serializers.CharField(help_text="A stable word: `target`, `target_on_bid`, `bags`, `lose_at`, "
                                           "`level` (docs/api.md).")
    amount = serializers.IntegerField(allow_null=True, help_text="How far: points, or bags.")
    text = serializers.CharField(help_text="In words, e.g. `EW need 62 to reach 500`.")


class NeedsOut(serializers.Serializer):
    """What each side needs to win, under the game's rules and house rules."""

    text = serializers.CharField(help_text="The whole line, e.g. `EW need 62 to reach 500; NS are 3 bags from "
                                           "a penalty`; empty once the game is over.")
    parts = NeedOut(many=True)


class SummaryFields(serializers.Serializer):
    """Fields read from a game's summary (``games.summary``), worked out once per game shown."""

    def summary(self, game: Game) -> GameSummary:
        last = getattr(self, "_last_summary", None)
        if last is None or last[0] is not game:
            last = self._last_summary = (game, game_summary(game))
        return last[1]


class GameOut(SummaryFields, serializers.ModelSerializer):
    seats = SeatsOut(source="*")
    is_public = serializers.SerializerMethodField(
        help_text="Whether anyone may read it: its league is public, or (a casual game) its creator made it so.")
    totals = serializers.SerializerMethodField()
    extras = serializers.SerializerMethodField()
    bags = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    next_dealer = serializers.SerializerMethodField()
    needs = serializers.SerializerMethodField()
    options = serializers.DictField(help_text="Every option, defaults filled in.")

    class Meta:
        model = Game
        fields = ["id", "game_type", "league", "is_public", "match", "match_game_number", "seats", "options",
                  "status", "totals", "extras", "bags", "winner", "next_dealer", "needs", "hand_count",
                  "confirmation", "unconfirmed", "provisional", "started_at", "finished_at"]
        extra_kwargs = {
            "confirmation": {"help_text": "`opponents`: a player of the other side confirms each hand; `off`."},
            "unconfirmed": {"help_text": "Hands waiting for the other side's confirmation, or disputed."},
            "provisional": {"help_text": "Finished with hands not yet confirmed, and its league's window not yet "
                                         "passed: not counted in the standings yet."},
        }

    def get_is_public(self, game: Game) -> bool:
        return game.league.is_public if game.league_id else game.is_public

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"},
                          "description": "Points per side (NS, EW), or per seat in Spades without partnerships."})
    def get_totals(self, game: Game) -> dict[str, int]:
        return self.summary(game).totals

    @extend_schema_field(extras_schema("What the game keeps per side besides points, by name (Spades: "
                                       "`bags`); empty for games that keep nothing else."))
    def get_extras(self, game: Game) -> dict[str, dict[str, int]]:
        return self.summary(game).extras

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": {"type": "integer"},
                          "description": "Spades: bags per side (the same as `extras.bags`); null in other games."})
    def get_bags(self, game: Game) -> dict[str, int] | None:
        return self.summary(game).extras.get("bags")

    @extend_schema_field({"type": "string", "nullable": True, "description": "The winning side, once finished."})
    def get_winner(self, game: Game) -> str | None:
        return self.summary(game).winner

    @extend_schema_field({"type": "string", "pattern": "^[NESW]$", "description": "Who deals the next hand."})
    def get_next_dealer(self, game: Game) -> str:
        return self.summary(game).next_dealer

    @extend_schema_field(NeedsOut(help_text="What each side needs to win (docs/api.md, \"Every number in "
                                            "words\"); empty once the game is over."))
    def get_needs(self, game: Game) -> dict:
        return game_needs(game).as_dict()


class HandOut(serializers.ModelSerializer):
    record = serializers.DictField(help_text="The hand as entered (docs/rules/<game>.md).")
    delta = scores("Points each side gained or lost on this hand.")
    totals = scores("Totals after this hand.")
    extras = serializers.SerializerMethodField()
    bags = serializers.SerializerMethodField()
    explanation = serializers.SerializerMethodField()
    entered_by = serializers.SerializerMethodField(help_text="Who entered it: their display name.")
    version = serializers.CharField(read_only=True, help_text="Changes whenever the hand is written (corrected, "
                                                              "scored again, confirmed or disputed); send it as "
                                                              "`If-Match`.")
    confirmation = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = ["number", "dealer", "record", "delta", "totals", "extras", "bags", "explanation", "entered_by",
                  "entered_at", "updated_at", "version", "confirmation"]

    @extend_schema_field({"type": "string", "nullable": True, "enum": [*HAND_CHECK_STATES, None],
                          "description": "In a game whose hands the other side confirms: `waiting` for them, "
                                         "`confirmed`, `disputed` (see its checks), or `kept` by the scorekeeper "
                                         "after a dispute; null in other games."})
    def get_confirmation(self, hand: Hand) -> str | None:
        return hand.check_state or None

    @extend_schema_field(ExplanationOut(help_text="The hand's score in words, from the game's rules "
                                                  "(docs/api.md, \"Every number in words\")."))
    def get_explanation(self, hand: Hand) -> dict:
        # The hands of one game share its players' names, worked out once.
        game = hand.game
        names = getattr(self, "_names", None)
        if names is None or names[0] is not game:
            names = self._names = (game, player_names(game))
        return hand_explanation(game, hand, names[1]).as_dict()

    def get_entered_by(self, hand: Hand) -> str | None:
        return display_name(hand.entered_by) if hand.entered_by_id else None

    @extend_schema_field(extras_schema("The game's extras after this hand, by name (Spades: `bags`)."))
    def get_extras(self, hand: Hand) -> dict[str, dict[str, int]]:
        return dict(hand.extras or {})

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": {"type": "integer"},
                          "description": "Spades: bags per side after this hand (the same as `extras.bags`); "
                                         "else null."})
    def get_bags(self, hand: Hand) -> dict[str, int] | None:
        return (hand.extras or {}).get("bags")


class CheckOut(serializers.ModelSerializer):
    by = serializers.SerializerMethodField(help_text="Who: their display name (none for a phone with the code).")
    seat = serializers.CharField(help_text="The seat that confirmed or disputed (empty when the scorekeeper kept).")
    record = serializers.DictField(allow_null=True, help_text="A dispute: the hand as they say it was.")

    class Meta:
        model = HandCheck
        fields = ["number", "action", "seat", "via", "by", "hand_version", "record", "note", "at"]

    def get_by(self, check: HandCheck) -> str | None:
        return display_name(check.by) if check.by_id else None


class CheckIn(Strict):
    """Who confirms: a seated player's account needs nothing more; a phone with the table's code sends it."""

    seat = Seat(required=False, help_text="With `table_token`: the seat of the player confirming.")
    table_token = Text(max_length=64, required=False,
                       help_text="The game's table token (from its code), for a player without an account.")


class DisputeIn(CheckIn):
    record = JSONObject(help_text="The hand as you say it was (docs/rules/<game>.md).")
    note = Text(max_length=500, required=False, default="", allow_blank=True)


class KeepIn(Strict):
    note = Text(max_length=500, help_text="Why the hand stays as entered: shown in its trail.")


class CheckResultOut(serializers.Serializer):
    check = CheckOut()
    hand = HandOut()


class GameDetailOut(GameOut):
    hands = HandOut(many=True, read_only=True)

    class Meta(GameOut.Meta):
        fields = [*GameOut.Meta.fields, "hands"]


# --- hands -----------------------------------------------------------------------------------------


class HandBody(serializers.Serializer):
    """A hand record exactly as in docs/rules/<game>.md, with the control keys this serializer names beside it.

    The control keys are taken off and checked here; the rest is the record, checked by the engine.
    """

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["a hand must be an object of fields"]})
        controls = {name: data[name] for name in self.fields if name in data}
        validated = super().to_internal_value(controls)
        record = {name: value for name, value in data.items() if name not in self.fields}
        problem = json_problem(record)
        if problem:
            raise serializers.ValidationError({"non_field_errors": [problem]})
        validated["record"] = record
        return validated


class HandIn(HandBody):
    expected_number = Id(required=False)


class HandCorrectionIn(HandBody):
    reason = Text(max_length=500, required=False, allow_blank=True, default="")


class UndoIn(Strict):
    reason = Text(max_length=500, required=False, allow_blank=True, default="")


class HandResultOut(serializers.Serializer):
    """The body of a 201 for a new hand (and of every idempotent replay of it)."""

    number = serializers.IntegerField()
    dealer = serializers.ChoiceField(choices=SEATS)
    delta = scores("Points each side gained or lost on this hand.")
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUSES)
    totals = scores("The game's totals after this hand.")
    bags = scores("Spades only: bags per side.", required=False)
    winner = serializers.CharField(allow_null=True)
    next_dealer = Seat()


class RevisionOut(serializers.ModelSerializer):
    changed_by = serializers.SerializerMethodField(help_text="Who changed it: their display name.")
    previous_record = serializers.DictField()
    new_record = serializers.DictField(allow_null=True, help_text="null for an undo.")

    class Meta:
        model = HandRevision
        fields = ["number", "action", "previous_record", "new_record", "changed_by", "changed_at", "reason"]

    def get_changed_by(self, revision: HandRevision) -> str | None:
        return display_name(revision.changed_by) if revision.changed_by_id else None


# --- matches ---------------------------------------------------------------------------------------


@extend_schema_field({"type": "string", "description": "A game type played in matches.", "pattern": "^({})$".format(
    "|".join(ruleset.game_type for ruleset in rulesets() if ruleset.match_games))})
class MatchGameType(GameType):
    def __init__(self, **kwargs):
        super().__init__(in_matches=True, **kwargs)


class MatchIn(Strict):
    game_type = MatchGameType()
    league = Id(required=False, allow_null=True, default=None)
    seats = SeatsIn(help_text="Game 1's seating; games 2 and 3 rotate partners from it.")
    first_dealer = Seat(required=False)
    options = JSONObject(required=False, default=dict)


class MatchGameOut(GameOut):
    class Meta(GameOut.Meta):
        fields = ["id", "match_game_number", "seats", "status", "totals", "winner", "hand_count", "next_dealer",
                  "provisional"]


class PlayerTotal(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()


class MatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    game_type = serializers.CharField()
    league = serializers.IntegerField(source="league_id", allow_null=True)
    seating = SeatsIn(help_text="Game 1's seating (player ids).")
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=STATUSES)
    provisional = serializers.BooleanField(
        read_only=True, help_text="One of its games is provisional (finished with hands the other side has not yet "
                                  "confirmed, its league's window not passed): the match is out of the standings "
                                  "until that game is in.")
    player_totals = PlayerTotal(many=True, source="player_rows",
                                help_text="Each player's match total so far, highest first.")
    winners = serializers.ListField(child=serializers.IntegerField(), help_text="Winning player ids (ties share).")
    games = MatchGameOut(many=True, source="games.all")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

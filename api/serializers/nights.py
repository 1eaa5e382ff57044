"""Club nights: request shapes for running one, and the night as the API shows it (docs/api.md, "Club nights").

The night's body is built from :func:`games.nights.night_view` (a fixed number of queries, whatever its size)
as plain values; the serializers below give it its shape and describe it in the schema.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from games.models import Game, Night
from games.nights import NightView
from games.rules import RULESETS
from games.services.nights import HANDS_RANGE, MAX_TABLE_NUMBER, MINUTES_RANGE, ROUNDS_RANGE
from games.standings.nights import ABANDONED, DRAWN, LOST, PLAYING, SAT_OUT, WON

from .common import Id, JSONBoolean, JSONInteger, JSONObject, PlayerRef, Strict, Text
from .games import GameType

# The night's code: a 128-bit secret as a link carries it (``new_night_code``), with room to spare.
MAX_CODE = 64


# --- what is sent --------------------------------------------------------------------------------------------


class NightIn(Strict):
    """A club night to start: its game, house rules, how a round ends, how many rounds and the movement."""

    game_type = GameType()
    options = JSONObject(required=False, default=dict,
                         help_text="House rules for the night's games (docs/rules/<game>.md); left out ones take the "
                                   "league's or the default. Not `last_hand`: a round's end (`round_end`) sets it.")
    movement = serializers.ChoiceField(choices=Night.Movement.choices, required=False, default="individual",
                                       help_text="`individual`: partners change every round; `pairs`: fixed "
                                                 "partnerships, each meeting every other pair.")
    round_end = serializers.ChoiceField(choices=Night.RoundEnd.choices, required=False, default="hands",
                                        help_text="`hands`: each game ends after `hands` hands; `time`: the hand in "
                                                  "play after `minutes` is the last; `target`: each game is played "
                                                  "to its target.")
    hands = JSONInteger(required=False, allow_null=True, default=None, min_value=HANDS_RANGE[0],
                        max_value=HANDS_RANGE[1], help_text="A round's hands (`round_end` `hands`: required).")
    minutes = JSONInteger(required=False, allow_null=True, default=None, min_value=MINUTES_RANGE[0],
                          max_value=MINUTES_RANGE[1], help_text="A round's minutes (`round_end` `time`: required).")
    rounds = JSONInteger(required=False, default=3, min_value=ROUNDS_RANGE[0], max_value=ROUNDS_RANGE[1],
                         help_text="Rounds planned (the director may end sooner or play on).")
    name = Text(required=False, allow_null=True, default=None, max_length=120,
                help_text="Default: \"Club night, <today's date>\".")


class CheckInIn(Strict):
    player = Id(required=False, allow_null=True, default=None,
                help_text="One of the league's players (the league's players are at `leagues/{id}/players/`).")
    name = Text(required=False, allow_null=True, default=None, max_length=80,
                help_text="Organisers only: a new player of the league, checked in at once (instead of `player`).")
    allow_similar = JSONBoolean(required=False, default=False,
                                help_text="With `name`: add them although a player's name differs only in case or "
                                          "spacing (someone else).")
    partner = Id(required=False, allow_null=True, default=None,
                 help_text="A pairs night: the partner, checked in with them as a pair.")
    night_code = Text(required=False, allow_null=True, default=None, max_length=MAX_CODE,
                      help_text="The night's code (its check-in QR): whoever holds it checks themselves in by "
                                "`player`, without an account. Not needed by the night's organisers.")


class NightPlayerIn(Strict):
    player = Id(help_text="One of the league's players checked in to the night.")


class PairIn(Strict):
    player = Id(help_text="A player checked in to the pairs night, without a partner.")
    partner = Id(help_text="Another, without a partner: the two become a pair.")


class RoundIn(Strict):
    move_on = JSONBoolean(required=False, default=False,
                          help_text="Start it although a table of the last round is still playing: that table "
                                    "finishes its game, and its players join when it is done.")


class SubstituteIn(Strict):
    leaving = Id(help_text="The player leaving their seat at a table still playing (and the night).")
    arriving = Id(help_text="The player taking it from the next hand: one sitting the round out, one not yet "
                            "checked in, never one with another seat in the round.")


class TableMoveIn(Strict):
    table = JSONInteger(min_value=1, max_value=MAX_TABLE_NUMBER, help_text="The table's number in the latest round.")
    to = JSONInteger(min_value=1, max_value=MAX_TABLE_NUMBER,
                     help_text="Its new number; a table already there takes the old one.")


class TableEndIn(Strict):
    table = JSONInteger(min_value=1, max_value=MAX_TABLE_NUMBER, help_text="The table's number.")
    round = JSONInteger(required=False, allow_null=True, default=None, min_value=1, max_value=ROUNDS_RANGE[1] * 10,
                        help_text="The table's round (default: the latest). Send it, so that a retry after the "
                                  "next round started cannot end that round's table of the same number.")
    abandon = JSONBoolean(required=False, default=False,
                          help_text="Abandon the game (it counts for nothing) rather than end it with the hands "
                                    "played (the side ahead wins, sides level draw).")


class NightEndIn(Strict):
    end_tables = JSONBoolean(required=False, default=False,
                             help_text="End the tables still playing now, with the hands played (a table with none "
                                       "is abandoned); otherwise they finish their games.")


# --- what is shown -------------------------------------------------------------------------------------------


class NightOut(serializers.Serializer):
    """A club night, without its players and rounds."""

    id = serializers.IntegerField()
    league = serializers.IntegerField(source="league_id")
    name = serializers.CharField()
    game_type = serializers.ChoiceField(choices=list(RULESETS))
    movement = serializers.ChoiceField(choices=Night.Movement.choices)
    round_end = serializers.ChoiceField(choices=Night.RoundEnd.choices)
    hands = serializers.IntegerField(allow_null=True, help_text="A round's hands (`round_end` `hands`), else null.")
    minutes = serializers.IntegerField(allow_null=True, help_text="A round's minutes (`round_end` `time`), else null.")
    rounds = serializers.IntegerField(help_text="Rounds planned.")
    status = serializers.ChoiceField(choices=Night.Status.choices)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.SerializerMethodField(help_text="The night's address in the API.")

    def get_url(self, night: Night | dict[str, Any]) -> str:
        return reverse("api-night", args=[night["id"] if isinstance(night, dict) else night.pk])


class EntrantOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    order = serializers.IntegerField(help_text="Check-in order (round 1 is seated in it).")
    pair = serializers.IntegerField(allow_null=True, help_text="A pairs night: the pair's number, else null.")
    present = serializers.BooleanField(help_text="false once they have left (seated in no later round).")
    arrived_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)


class TableSeatsOut(serializers.Serializer):
    N = PlayerRef()
    E = PlayerRef()
    S = PlayerRef()
    W = PlayerRef()


class SubstitutionOut(serializers.Serializer):
    seat = serializers.CharField()
    leaving = PlayerRef()
    arriving = PlayerRef()
    after_hands = serializers.IntegerField(help_text="Hands played at the table before the substitute sat down.")
    at = serializers.DateTimeField()


class TableOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="Its number in the room.")
    game = serializers.IntegerField(help_text="The table's game (`games/{id}/`: its hands are recorded there).")
    seats = TableSeatsOut(help_text="Who sits where now (a substitute in the seat they took).")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    hand_count = serializers.IntegerField()
    last_hand = serializers.IntegerField(allow_null=True,
                                         help_text="The game's last hand, once known (a round of hands, or the "
                                                   "hand in play when the time was up).")
    progress = serializers.CharField(help_text='How far it is, in words: "hand 5 of 8", "finished", ...')
    totals = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True, help_text="The side that won; null while playing, for a draw or "
                                                              "an abandoned game.")
    substitutions = SubstitutionOut(many=True)


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    time_up_at = serializers.DateTimeField(allow_null=True, help_text="A round with a time limit: when the hand "
                                                                      "in play becomes each table's last.")
    tables = TableOut(many=True)
    sitting_out = PlayerRef(many=True)


class RoundEntryOut(serializers.Serializer):
    round = serializers.IntegerField()
    result = serializers.ChoiceField(choices=[WON, LOST, DRAWN, PLAYING, ABANDONED, SAT_OUT], allow_null=True,
                                     help_text="null: not there that round.")
    table = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True, help_text="Their side's total at the table.")
    game = serializers.IntegerField(allow_null=True)


class StandingOut(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 first; equal wins and points share a place.")
    players = PlayerRef(many=True, help_text="The player, or a pairs night's pair.")
    pair = serializers.IntegerField(allow_null=True, help_text="A pairs night: the pair's number.")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Their sides' totals over the games finished.")
    sat_out = serializers.IntegerField()
    rounds = RoundEntryOut(many=True)


class NightDetailOut(NightOut):
    """A club night with its players, its rounds (each table's game, seats and progress) and its standings."""

    options = serializers.DictField(help_text="The games' house rules, every option filled in.")
    code = serializers.CharField(allow_null=True,
                                 help_text="The night's code (its check-in QR): shown to its organisers only, "
                                           "null for anyone else.")
    can_run = serializers.BooleanField(help_text="Whether you may run the night (its league's owners and "
                                                 "scorekeepers).")
    next_step = serializers.CharField(help_text="What the director does next, in words.")
    players = EntrantOut(many=True, help_text="Everyone checked in, in check-in order.")
    rounds_played = RoundOut(many=True, help_text="The rounds started so far, the first first: each with its "
                                                  "tables and who sat it out.")
    standings = StandingOut(many=True)
    results_csv = serializers.CharField(help_text="The night's results as CSV.")


def player_ref(view: NightView, pk: int) -> dict[str, Any]:
    player = view.players.get(pk)
    return {"id": pk, "name": player.name if player is not None else ""}


def night_body(view: NightView, *, organiser: bool) -> dict[str, Any]:
    """The night as :class:`NightDetailOut` shows it (no query beyond what ``view`` has read), its code for its
    organisers only."""
    night = view.night
    rounds = [{
        "number": round_.number,
        "started_at": round_.round.started_at,
        "time_up_at": round_.round.time_up_at,
        "tables": [{
            "number": table.number,
            "game": table.game.pk,
            "seats": {seat: {"id": player.pk, "name": player.name} for seat, player in table.game.seats.items()},
            "status": table.game.status,
            "hand_count": table.game.hand_count,
            "last_hand": table.last_hand,
            "progress": table.progress(),
            "totals": {side: int(total) for side, total in table.game.totals.items()},
            "winner": table.game.winner or None,
            "substitutions": [{"seat": change.seat, "leaving": {"id": change.leaving_id, "name": change.leaving.name},
                               "arriving": {"id": change.arriving_id, "name": change.arriving.name},
                               "after_hands": change.after_hands, "at": change.at}
                              for change in table.substitutions],
        } for table in round_.tables],
        "sitting_out": [{"id": player.pk, "name": player.name} for player in round_.sitting_out],
    } for round_ in view.rounds]
    standings = [{
        "place": line.place,
        "players": [player_ref(view, pk) for pk in line.who],
        "pair": line.key if view.pairs is not None else None,
        "played": line.played, "won": line.won, "drawn": line.drawn, "lost": line.lost, "points": line.points,
        "sat_out": line.sat_out,
        "rounds": [{"round": entry.round, "result": entry.result, "table": entry.table, "points": entry.points,
                    "game": entry.game_id} for entry in line.rounds],
    } for line in view.standings]
    return NightDetailOut({
        **{field: getattr(night, field) for field in ("id", "league_id", "name", "game_type", "movement", "round_end",
                                                     "hands", "minutes", "rounds", "status", "created_at",
                                                     "finished_at", "options")},
        "code": night.code if organiser else None,
        "can_run": organiser,
        "next_step": view.next_step,
        "players": [{"id": entrant.player_id, "name": entrant.player.name, "order": entrant.order,
                     "pair": entrant.pair, "present": entrant.present,
                     "arrived_at": entrant.arrived_at, "left_at": entrant.left_at} for entrant in view.entrants],
        "rounds_played": rounds,
        "standings": standings,
        "results_csv": reverse("api-night-results", args=[night.pk]),
    }).data

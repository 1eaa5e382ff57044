"""The JSON Schema of a league backup, made from code: its list of games is the rules registry's.

``docs/league-backup.schema.json`` is this schema as written by ``manage.py backup_schema`` (a test checks
that the committed file is what the command writes), and a restore validates documents against
:func:`backup_schema` itself, so a game added to the registry is restorable the moment it is registered.
Every object is closed (``additionalProperties: false``): a field this version does not know (a typo such
as ``is_publik``) is refused rather than restored without it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from games.models.play import (
    HAND_CHECK_STATES,
    MAX_PROVISIONAL_HOURS,
    PROVISIONAL_HOURS,
    Confirmation,
    HandCheck,
)
from games.rules import RULES_VERSION, RULESETS, SEATS

FORMAT = "scorekeeper-league"
VERSION = 1
SCHEMA_ID = "https://scorekeeper.invalid/schemas/league-backup-v1.json"

PLAYER_KEY = {"type": "string", "pattern": "^P[0-9]+$"}
MATCH_KEY = "^M[0-9]+$"
GAME_KEY = "^G[0-9]+$"
NIGHT_KEY = "^N[0-9]+$"


def closed(required: list[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An object with these properties and no others."""
    return {"type": "object", **more, "required": required, "properties": properties,
            "additionalProperties": False}


def ref(name: str, **more: Any) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}", **more}


def text(low: int, high: int) -> dict[str, Any]:
    return {"type": "string", "minLength": low, "maxLength": high, "pattern": r"\S"}


def league() -> dict[str, Any]:
    return closed(["name", "slug"], {
        "name": text(1, 120),
        "slug": {"type": "string", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$", "maxLength": 80,
                 "description": "The league's address, /leagues/<slug>/. A restore into a site that already has "
                                "it picks a free one."},
        "is_public": {"type": "boolean", "default": True},
        "default_options": {
            "type": "object",
            "description": "House rules per game type: {game type: {option: value}}, as in docs/rules/<game>.md.",
            "propertyNames": ref("game_type"),
            "additionalProperties": {"type": "object"},
        },
        "confirmation": ref("confirmation", description="Whether the other side confirms each hand of the games "
                                                        "the league starts from now on (its house rule)."),
        "provisional_hours": {"type": "integer", "minimum": 0, "maximum": MAX_PROVISIONAL_HOURS,
                              "default": PROVISIONAL_HOURS,
                              "description": "How many hours a finished game with hands not yet confirmed stays "
                                             "provisional (out of the standings)."},
    })


def players() -> dict[str, Any]:
    return {
        "type": "array",
        "description": "Everyone on the league's roster and everyone who sat in its games, by name (no accounts). "
                       "Keys are unique.",
        "items": closed(["key", "name"], {"key": PLAYER_KEY, "name": text(1, 80)}),
    }


def seasons() -> dict[str, Any]:
    return {
        "type": "array",
        "description": "The league's seasons, oldest first: named date ranges, each with its own standings (worked "
                       "out afresh after a restore). They never overlap and no two share a name (whatever the "
                       "case); a restore refuses a backup whose seasons do. Optional: a backup written before "
                       "seasons were kept has none, and restores without.",
        "items": closed(["name", "starts_on"], {
            "name": text(1, 80),
            "starts_on": ref("day", description="Its first day."),
            "ends_on": {"anyOf": [ref("day"), {"type": "null"}], "default": None,
                        "description": "Its last day (included); null while the season is open."},
        }),
    }


def matches() -> dict[str, Any]:
    return {
        "type": "array",
        "description": "Games played in matches (Trumps: three games, partners rotating). Keys are unique.",
        "items": closed(["key", "seating", "options"], {
            "key": {"type": "string", "pattern": MATCH_KEY},
            "game_type": ref("game_type"),
            "seating": ref("seats", description="Game 1's seating; later games follow from it."),
            "options": {"type": "object"},
            "abandoned": {"type": "boolean", "default": False},
            "started_at": ref("moment"),
        }),
    }


def game() -> dict[str, Any]:
    return closed(["key", "game_type", "seats", "options", "hands"], {
        "key": {"type": "string", "pattern": GAME_KEY, "description": "Unique among the games."},
        "game_type": ref("game_type"),
        "seats": ref("seats"),
        "options": {"type": "object",
                    "description": "Every option of the game (docs/rules/<game>.md), defaults filled in."},
        "rules_version": {"type": "integer", "minimum": 1, "maximum": RULES_VERSION,
                          "description": "The rules version that scored the game (docs/rules.md, \"Versions\")."},
        "abandoned": {"type": "boolean", "default": False},
        "match": {"type": ["string", "null"], "pattern": MATCH_KEY, "description": "The key of its match, if any."},
        "match_game_number": {"type": ["integer", "null"], "minimum": 1},
        "started_at": ref("moment"),
        "finished_at": {"anyOf": [ref("moment"), {"type": "null"}],
                        "description": "Not before started_at; null while the game is in progress."},
        "time_up_at": {"anyOf": [ref("moment"), {"type": "null"}], "default": None,
                       "description": "A club night's game in a round with a time limit: once this moment has "
                                      "passed, the hand in play is the game's last. Optional."},
        "confirmation": ref("confirmation", description="Whether the other side confirms each hand of this game. "
                                                        "A backup without it: off, every hand as entered."),
        "hands": {
            "type": "array",
            "description": "In the order played, numbered 1, 2, 3... Totals, winner and status are not stored: "
                           "they follow from re-scoring these; nor are the game's count of unconfirmed hands and "
                           "whether it is provisional: they follow from its hands' confirmation, when it finished "
                           "and the league's provisional_hours.",
            "items": closed(["record"], {
                "number": {"type": "integer", "minimum": 1},
                "record": {"type": "object",
                           "description": "The hand record exactly as docs/rules/<game>.md describes it."},
                "entered_at": ref("moment"),
                "confirmation": {"enum": list(HAND_CHECK_STATES), "default": "confirmed",
                                 "description": "Where the hand stands with the other side, in a game whose "
                                                "confirmation is opponents (and only there): waiting for them, "
                                                "confirmed, disputed, or kept by the scorekeeper after a dispute. "
                                                "Absent: confirmed. Other than waiting, it is what the last of its "
                                                "checks did (a correction the backup does not carry can make a "
                                                "hand wait again)."},
                "entered_side": {"type": "string", "maxLength": 4, "default": "",
                                 "description": "The side of whoever entered it, which does not confirm it (one "
                                                "of the game's sides, e.g. NS); empty: a scorekeeper not at the "
                                                "table, whose hands either side confirms."},
                "checks": {"type": "array", "items": ref("check"),
                           "description": "Its confirmation trail, oldest first."},
            }),
        },
    })


def nights() -> dict[str, Any]:
    seat = {"type": "string", "enum": ["N", "E", "S", "W"]}
    moment_or_null = {"anyOf": [ref("moment"), {"type": "null"}], "default": None}
    return {
        "type": "array",
        "description": "The league's club nights (docs/club-night.md), oldest first: who came, and each round's "
                       "tables, whose games are among the games (by key). Their standings are not stored: they follow "
                       "from the games. A night's code is not kept: a restored night has a new one. Optional: a "
                       "backup written before nights were kept has none. Keys are unique.",
        "items": closed(["key", "name", "game_type", "options", "rounds"], {
            "key": {"type": "string", "pattern": NIGHT_KEY},
            "name": text(1, 120),
            "game_type": ref("game_type"),
            "options": {"type": "object", "description": "The games' house rules, every option filled in."},
            "movement": {"enum": ["individual", "pairs"], "default": "individual"},
            "round_end": {"enum": ["hands", "time", "target"], "default": "hands"},
            "hands": {"type": ["integer", "null"], "minimum": 1, "maximum": 50, "default": None,
                      "description": "A round's hands (round_end hands)."},
            "minutes": {"type": ["integer", "null"], "minimum": 5, "maximum": 240, "default": None,
                        "description": "A round's minutes (round_end time)."},
            "rounds": {"type": "integer", "minimum": 1, "maximum": 60, "description": "Rounds planned."},
            "status": {"enum": ["checking_in", "playing", "finished"], "default": "checking_in"},
            "created_at": ref("moment"),
            "finished_at": moment_or_null,
            "entrants": {
                "type": "array",
                "description": "Who was checked in, in check-in order; each player once.",
                "items": closed(["player"], {
                    "player": PLAYER_KEY,
                    "pair": {"type": ["integer", "null"], "minimum": 1, "default": None,
                             "description": "A pairs night: the number shared with the partner."},
                    "arrived_at": ref("moment"),
                    "left_at": {**moment_or_null, "description": "When they left; null: still there."},
                }),
            },
            "rounds_played": {
                "type": "array",
                "description": "The rounds started, numbered 1, 2, 3... in order.",
                "items": closed(["number", "tables"], {
                    "number": {"type": "integer", "minimum": 1},
                    "started_at": ref("moment"),
                    "time_up_at": moment_or_null,
                    "sitting_out": {"type": "array", "items": PLAYER_KEY, "description": "Who sat the round out."},
                    "tables": {
                        "type": "array",
                        "items": closed(["number", "game"], {
                            "number": {"type": "integer", "minimum": 1, "maximum": 99},
                            "game": {"type": "string", "pattern": GAME_KEY,
                                     "description": "The key of the table's game (of the night's game type); a "
                                                    "game is at one table only."},
                            "substitutions": {
                                "type": "array",
                                "items": closed(["seat", "leaving", "arriving"], {
                                    "seat": seat,
                                    "leaving": PLAYER_KEY,
                                    "arriving": PLAYER_KEY,
                                    "after_hands": {"type": "integer", "minimum": 0, "default": 0},
                                    "at": ref("moment"),
                                }),
                            },
                        }),
                    },
                }),
            },
        }),
    }
def check() -> dict[str, Any]:
    return closed(["action", "at"], {
        "action": {"enum": list(HandCheck.Action.values),
                   "description": "confirmed or disputed by a player of the other side, or kept as entered by "
                                  "the scorekeeper after a dispute."},
        "seat": {"enum": ["", *SEATS], "default": "",
                 "description": "The seat of the player who confirmed or disputed it (empty: the scorekeeper)."},
        "via": {"enum": list(HandCheck.Via.values), "default": "account",
                "description": "How: " + "; ".join(f"{value}: {label}" for value, label in HandCheck.Via.choices) + "."},
        "at": ref("moment"),
        "record": {"type": "object",
                   "description": "A dispute: the hand as the disputing player says it was (a record as for any "
                                  "hand; checked by the rules at that point of the game)."},
        "note": {"type": "string", "maxLength": 500, "default": "",
                 "description": "Why: the disputing player's, or the scorekeeper's when keeping it."},
    })


def definitions() -> dict[str, Any]:
    return {
        "game_type": {
            "enum": list(RULESETS),
            "description": "A game of the rules registry: "
                           + ", ".join(f"{ruleset.game_type} ({ruleset.name})" for ruleset in RULESETS.values()) + ".",
        },
        "game": game(),
        "check": check(),
        "confirmation": {"enum": list(Confirmation.values), "default": "off",
                         "description": "off: the scorekeeper's word stands; opponents: a player of the side that "
                                        "did not enter a hand confirms it (docs/table.md)."},
        "day": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                "description": "A day, YYYY-MM-DD (in the site's time zone: a game belongs to the season containing "
                               "the day it finished there)."},
        "moment": {"type": "string", "format": "date-time",
                   "description": "ISO 8601 with a UTC offset, e.g. 2026-03-05T19:30:00+00:00."},
        "seats": closed(["N", "E", "S", "W"], {seat: PLAYER_KEY for seat in ("N", "E", "S", "W")},
                        description="A player's key for each seat; four different players."),
    }


def build() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Scorekeeper league backup, version {VERSION}",
        "description": "A league as one JSON document: its settings, players, seasons, matches, games and club "
                       "nights, each game with its options, the rules version that scored it and every hand as it was entered. "
                       "Written by the league page's backup download, GET /api/v1/leagues/{id}/backup/ and "
                       "`manage.py export_league`; read back by the restore page, POST /api/v1/leagues/import/ and "
                       "`manage.py import_league`, which check it against this schema and the rules of each game "
                       "and re-score every hand with the rules engine. Players, matches and games are named by keys "
                       "(P1, M1, G1...), not database ids. Generated from the rules registry by `manage.py "
                       "backup_schema`. See docs/league-backup.md.",
        **closed(["format", "version", "league", "players", "games"], {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "league": league(),
            "players": players(),
            "seasons": seasons(),
            "matches": matches(),
            "games": {"type": "array", "items": ref("game")},
            "nights": nights(),
        }),
        "$defs": definitions(),
    }


@cache
def cached(game_types: tuple[str, ...]) -> dict[str, Any]:
    return build()


def backup_schema() -> dict[str, Any]:
    """The schema for the games registered now (made once per set of games)."""
    return cached(tuple(RULESETS))


def schema_text() -> str:
    """The schema as ``docs/league-backup.schema.json`` holds it."""
    return json.dumps(backup_schema(), indent=2, ensure_ascii=False) + "\n"

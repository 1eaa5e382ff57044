"""What a restore checks before it stores anything, and the problems it reports, each for a person.

Three layers, every problem of each collected (none stops the others):

1. the document against its JSON Schema (:func:`games.backup.schema.backup_schema`): shapes and types, so
   ``"is_public": "false"`` (a string) or a field this version does not know is refused, not guessed at;
2. the rules no schema can say: keys unique, four different players at a table, hands numbered 1 to n,
   a game finished no earlier than it started, matches whose games fit them;
3. every game re-scored by the rules engine (its options, every hand).

A game is checked on its own by :meth:`GameChecker.check`, given what the document says before its games
(:class:`DocumentFacts`), so a restore can read a large document's games one at a time, or in batches, and
check each as it comes; :meth:`GameChecker.finish` adds what only the whole list shows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import jsonschema
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.rules import RULES_VERSION, RULESETS, SEATS, GameState, RulesError, Ruleset, get_ruleset, shown

from .schema import backup_schema

KINDS = {"boolean": "true or false", "string": "text", "integer": "a whole number", "number": "a number",
         "object": "an object", "array": "a list", "null": "null"}


@cache
def validators(game_types: tuple[str, ...]) -> tuple[jsonschema.Draft202012Validator, jsonschema.Draft202012Validator]:
    """(the whole document's validator, one game's), for the games registered now."""
    schema = backup_schema()
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    game = {"$ref": "#/$defs/game", "$defs": schema["$defs"]}
    return (jsonschema.Draft202012Validator(schema, format_checker=checker),
            jsonschema.Draft202012Validator(game, format_checker=checker))


def document_validator() -> jsonschema.Draft202012Validator:
    return validators(tuple(RULESETS))[0]


def game_validator() -> jsonschema.Draft202012Validator:
    return validators(tuple(RULESETS))[1]


# --- saying where and what ---------------------------------------------------------------------------


def item_name(collection: str, index: int, item: Any) -> str:
    """``game G7``, ``player P3``, ``match M1``, ``season "Autumn 2026"``; by position when it has no key."""
    if collection == "seasons":
        name = item.get("name") if isinstance(item, dict) else None
        return f"season {shown(name)}" if isinstance(name, str) else f"season {index + 1}"
    key = item.get("key") if isinstance(item, dict) else None
    word = {"games": "game", "players": "player", "matches": "match", "nights": "night"}.get(collection, collection)
    return f"{word} {key}" if isinstance(key, str) and key else f"{collection}[{index}]"


def where(path: Iterable[Any], document: Any) -> str:
    """A JSON path as a person reads it: ``("games", 2, "hands", 1, "record")`` -> ``game G3: hand 2: record``."""
    parts: list[str] = []
    node = document
    path = list(path)
    i = 0
    while i < len(path):
        step = path[i]
        following = path[i + 1] if i + 1 < len(path) else None
        if isinstance(step, str) and isinstance(following, int) and step in ("games", "players", "matches",
                                                                                "seasons", "hands", "nights"):
            items = node.get(step) if isinstance(node, dict) else None
            item = items[following] if isinstance(items, list) and following < len(items) else None
            parts.append(f"hand {following + 1}" if step == "hands" else item_name(step, following, item))
            node, i = item, i + 2
            continue
        parts.append(step if isinstance(step, str) else f"[{step}]")
        node = node.get(step) if isinstance(node, dict) and isinstance(step, str) else None
        i += 1
    return ": ".join(parts) if parts else "document"


def expected(kinds: Any) -> str:
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return " or ".join(KINDS.get(kind, kind) for kind in kinds)


def said(error: jsonschema.ValidationError) -> str:
    """What is wrong with the value, as the rest of a sentence whose subject is the value's field."""
    value, rule, spec = error.instance, error.validator, error.validator_value
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if schema.get("format") == "date" and rule in ("pattern", "format"):
        return f"is {shown(value)}: a date is written YYYY-MM-DD, e.g. 2026-09-01"
    if rule == "type":
        return f"must be {expected(spec)}, not {shown(value)}"
    if (rule == "enum" and error.path and error.path[-1] == "game_type") or rule == "propertyNames":
        return f"is {shown(value)}, not a game this site scores ({', '.join(RULESETS)})"
    if rule == "maximum" and error.path and error.path[-1] == "rules_version":
        return (f"is {shown(value)}: this site knows rules versions 1 to {RULES_VERSION}; restore the backup "
                "on the site that wrote it, or a newer one")
    if rule in ("minimum", "maximum"):
        return f"is {shown(value)}, {'below' if rule == 'minimum' else 'above'} {spec}"
    if rule in ("minLength", "maxLength") or (rule == "pattern" and spec == r"\S"):
        return (f"is {shown(value)}: it must have {schema.get('minLength', 0)} to {schema.get('maxLength')} "
                "characters, not only spaces")
    if rule == "pattern":
        return f"is {shown(value)}, not of the form {spec}"
    if rule == "anyOf" and "null" in json.dumps(spec):
        return f"is {shown(value)}, neither a date and time (ISO 8601) nor null"
    return f"is {shown(value)}: {error.message}"


def object_said(error: jsonschema.ValidationError) -> str | None:
    """What is wrong with an object as a whole (a field missing or unknown), or None."""
    value, schema = error.instance, error.schema if isinstance(error.schema, Mapping) else {}
    if error.validator == "required":
        missing = [name for name in error.validator_value if isinstance(value, dict) and name not in value]
        return ", ".join(shown(name) for name in missing) + (" is" if len(missing) == 1 else " are") + " missing"
    if error.validator == "additionalProperties":
        extra = sorted(name for name in value if name not in schema.get("properties", {}))
        return (", ".join(shown(name) for name in extra) + (" is not a field" if len(extra) == 1 else
                " are not fields") + " of a backup (version 1): a field this site does not know is refused, "
                "not restored without it")
    return None


def schema_problems(validator: jsonschema.Draft202012Validator, instance: Any, name: str | None = None) -> list[str]:
    """Every way ``instance`` breaks the schema, each as ``where: what`` (after ``name``), in document order:
    ``league: "is_public" must be true or false, not "false"``."""
    errors = sorted(validator.iter_errors(instance), key=lambda error: [str(step) for step in error.path])
    problems = []
    for error in errors:
        path = list(error.path)
        whole = object_said(error)
        if whole is None and path and isinstance(path[-1], str):
            container, sentence = path[:-1], f"{json.dumps(path[-1])} {said(error)}"
        else:
            container, sentence = path, whole or said(error)
        place = [part for part in (name, where(container, instance) if container else None) if part]
        problems.append(f"{': '.join(place) or 'document'}: {sentence}")
    return list(dict.fromkeys(problems))  # a day both unlike YYYY-MM-DD and not a date is said once


# --- the document, but for its games ---------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentFacts:
    """What a game's checks need from the rest of the document: the player keys, and each match's game type
    (None where the document leaves it to its games, as backups written before matches named theirs)."""

    players: frozenset[str]
    matches: Mapping[str, str | None]


def listed(document: Any, key: str) -> list[Any]:
    items = document.get(key) if isinstance(document, dict) else None
    return items if isinstance(items, list) else []


def document_problems(document: Any) -> list[str]:
    """The problems of everything but the games: its schema (the games list itself only as a list), and
    unique keys for players and matches, and each match seated by four different listed players."""
    without_games = {**document, "games": []} if isinstance(document.get("games"), list) else document
    problems = schema_problems(document_validator(), without_games)
    problems += duplicates(listed(document, "players"), "players", document)
    problems += duplicates(listed(document, "matches"), "matches", document)
    players = facts_of(document).players
    seated = listed(document, "matches") if isinstance(document.get("players"), list) else []
    for index, entry in enumerate(seated):
        seating = entry.get("seating") if isinstance(entry, dict) else None
        if isinstance(seating, dict):
            problems += [f"{item_name('matches', index, entry)}: {problem}" for problem in seat_problems(seating, players)]
    return problems


def duplicates(items: list[Any], collection: str, document: Any) -> list[str]:
    seen: set[str] = set()
    problems = []
    for index, item in enumerate(items):
        key = item.get("key") if isinstance(item, dict) else None
        if isinstance(key, str) and key in seen:
            problems.append(f"{item_name(collection, index, item)}: the key {shown(key)} is used twice in "
                            f"{shown(collection)}; each needs its own")
        elif isinstance(key, str):
            seen.add(key)
    return problems


def facts_of(document: Any) -> DocumentFacts:
    players = frozenset(entry["key"] for entry in listed(document, "players")
                        if isinstance(entry, dict) and isinstance(entry.get("key"), str))
    matches: dict[str, str | None] = {}
    for entry in listed(document, "matches"):
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            game_type = entry.get("game_type")
            matches[entry["key"]] = game_type if isinstance(game_type, str) else None
    return DocumentFacts(players=players, matches=matches)


def seat_problems(seats: Mapping[str, Any], players: frozenset[str]) -> list[str]:
    """A table's seats: each a listed player, and four different ones."""
    problems = [f"seat {seat} names {shown(key)}, who is not among the players"
                for seat, key in seats.items() if isinstance(key, str) and key not in players]
    taken: dict[str, list[str]] = {}
    for seat in SEATS:
        if isinstance(seats.get(seat), str):
            taken.setdefault(seats[seat], []).append(seat)
    problems += [f"{shown(key)} sits in {' and '.join(where_seated)}: a player has one seat at a table"
                 for key, where_seated in taken.items() if len(where_seated) > 1]
    return problems


# --- one game at a time --------------------------------------------------------------------------------


def moment(value: Any) -> datetime | None:
    """A time of the document (ISO 8601; one without an offset is UTC), None for none; ValueError if unreadable."""
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise ValueError(f"{shown(value)} is not a date and time (ISO 8601)")
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, timezone.utc)


@dataclass(frozen=True)
class CheckedCheck:
    """One entry of a hand's confirmation trail, read."""

    action: str
    seat: str
    via: str
    at: datetime | None
    record: Mapping[str, Any] | None
    note: str


@dataclass(frozen=True)
class HandConfirmation:
    """Where a hand stands with the other side (a game whose confirmation is ``opponents``), and its trail."""

    state: str
    entered_side: str
    checks: tuple[CheckedCheck, ...] = ()


@dataclass(frozen=True)
class CheckedGame:
    """A game of the document that passed every check, re-scored: what a restore stores."""

    key: str
    game_type: str
    seats: Mapping[str, str]  # seat -> player key
    ruleset: Ruleset
    state: GameState
    rules_version: int
    abandoned: bool
    match: str | None
    match_game_number: int | None
    started_at: datetime | None
    finished_at: datetime | None
    entered: list[datetime | None]
    time_up_at: datetime | None = None
    confirmation: str = "off"
    # Each hand's confirmation, in a game whose confirmation is ``opponents`` (else empty).
    confirmations: tuple[HandConfirmation, ...] = ()


@dataclass
class GameChecker:
    """Checks a document's games one by one, remembering what the next ones must not repeat (keys, match slots)."""

    facts: DocumentFacts
    keys: set[str] = field(default_factory=set)
    match_slots: dict[tuple[str, int], str] = field(default_factory=dict)
    match_types: dict[str, str] = field(default_factory=dict)

    def check(self, entry: Any, index: int, *, validated: bool = False) -> tuple[CheckedGame | None, list[str]]:
        """The game re-scored, or None and every problem found (each naming the game, and the hand).
        ``validated``: the same game already passed the schema (a second reading of the same bytes)."""
        name = item_name("games", index, entry)
        problems = [] if validated else schema_problems(game_validator(), entry, name)
        if not isinstance(entry, dict):
            return None, problems
        # The rules are checked even where the schema found problems, as far as the shapes allow, so that
        # one report lists every problem; the engine only sees a game whose shape is right.
        shaped = not problems
        problems += [f"{name}: {problem}" for problem in self.rule_problems(entry)]
        if not shaped:
            return None, problems
        times: dict[str, datetime | None] = {}
        for label in ("started_at", "finished_at", "time_up_at"):
            try:
                times[label] = moment(entry.get(label))
            except ValueError as error:
                problems.append(f"{name}: {error}")
        entered: list[datetime | None] = []
        for number, hand in enumerate(entry["hands"], 1):
            try:
                entered.append(moment(hand.get("entered_at")))
            except ValueError as error:
                problems.append(f"{name}: hand {number}: {error}")
        started, finished = times.get("started_at"), times.get("finished_at")
        if started and finished and finished < started:
            problems.append(f"{name}: it finished ({entry['finished_at']}) before it started "
                            f"({entry['started_at']})")
        rules_version = entry.get("rules_version", 1)
        try:
            # Scored by the rules the game was played under: a check added since leaves its hands as they were.
            ruleset = get_ruleset(entry["game_type"], entry["options"], rules_version=rules_version)
            state = ruleset.replay([hand["record"] for hand in entry["hands"]])
        except RulesError as error:
            return None, [*problems, f"{name}: {error}"]
        abandoned = bool(entry.get("abandoned"))
        if abandoned and state.finished:
            problems.append(f"{name}: it is marked abandoned, yet its hands finish it")
        if finished and not state.finished and not abandoned:
            problems.append(f"{name}: it has a finished_at, yet its hands do not finish it (nor was it abandoned)")
        confirmation = entry.get("confirmation", OFF)
        confirmations, confirmation_problems = hand_confirmations(entry["hands"], confirmation, ruleset, state)
        problems += [f"{name}: {problem}" for problem in confirmation_problems]
        if problems:
            return None, problems
        return CheckedGame(
            key=entry["key"], game_type=entry["game_type"], seats=dict(entry["seats"]), ruleset=ruleset,
            state=state, rules_version=rules_version, abandoned=abandoned, match=entry.get("match"),
            match_game_number=entry.get("match_game_number"), started_at=started, finished_at=finished,
            entered=entered, time_up_at=times.get("time_up_at"), confirmation=confirmation,
            confirmations=tuple(confirmations),
        ), []

    def rule_problems(self, entry: Mapping[str, Any]) -> list[str]:
        """What the schema cannot say of one game, wherever its shape lets it be said."""
        problems = []
        key = entry.get("key")
        if isinstance(key, str):
            if key in self.keys:
                problems.append(f"the key {shown(key)} is used by another game; each game needs its own")
            self.keys.add(key)
        if isinstance(entry.get("seats"), dict):
            problems += seat_problems(entry["seats"], self.facts.players)
        hands = entry.get("hands")
        if not isinstance(hands, list):
            hands = []
        numbers = [hand.get("number", position) for position, hand in enumerate(hands, 1) if isinstance(hand, dict)]
        if len(numbers) == len(hands) and numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"its hands are numbered {', '.join(map(shown, numbers))}; hands are numbered 1 to "
                            f"{len(numbers)} in the order played")
        if isinstance(entry.get("game_type"), str) and entry["game_type"] in RULESETS:
            problems += self.match_problems(entry)
        return problems

    def match_problems(self, entry: Mapping[str, Any]) -> list[str]:
        match, number = entry.get("match"), entry.get("match_game_number")
        if match is None:
            return [] if number is None else [f"match_game_number is {number}, but the game names no match"]
        if match not in self.facts.matches:
            return [f"match {shown(match)} is not listed"]
        game_type = self.facts.matches[match] or self.match_types.setdefault(match, entry["game_type"])
        problems = []
        if entry["game_type"] != game_type:
            problems.append(f"it is {entry['game_type']}, but match {match} is {game_type}")
        games = RULESETS[game_type].match_games if game_type in RULESETS else 0
        if not games:
            problems.append(f"match {match}: {game_type} is not played in matches")
        elif number is None or number > games:
            problems.append(f"match_game_number must be 1 to {games} in match {match}, not {shown(number)}")
        elif (match, number) in self.match_slots:
            problems.append(f"game {number} of match {match} is also {self.match_slots[match, number]}")
        else:
            self.match_slots[match, number] = entry["key"]
        return problems

    def finish(self) -> list[str]:
        """What only the whole list of games shows: a match none of whose games is listed has no game type."""
        return [f"match {key} has no games, so its game type is unknown"
                for key, game_type in self.facts.matches.items() if game_type is None and key not in self.match_types]


# --- confirmation by the other side ----------------------------------------------------------------------

OFF, OPPONENTS = "off", "opponents"
CONFIRMATION_FIELDS = ("confirmation", "entered_side", "checks")


def hand_confirmations(hands: list[dict[str, Any]], confirmation: str, ruleset: Ruleset,
                       state: GameState) -> tuple[list[HandConfirmation], list[str]]:
    """Each hand's confirmation (shapes already checked by the schema) and the problems in them, each naming
    the hand. A hand of a game with confirmation that says nothing of it is confirmed (a backup written
    before confirmation was kept); a game without confirmation has none to say."""
    if confirmation != OPPONENTS:
        return [], [f"hand {number}: it has a {'/'.join(sorted(set(CONFIRMATION_FIELDS) & set(hand)))}, but "
                    "the game's hands are not confirmed by the other side (its confirmation is off)"
                    for number, hand in enumerate(hands, 1) if set(CONFIRMATION_FIELDS) & set(hand)]
    confirmations, problems = [], []
    for number, hand in enumerate(hands, 1):
        found: list[str] = []
        hand_state = hand.get("confirmation", "confirmed")
        side = hand.get("entered_side", "")
        if side and side not in ruleset.sides:
            found.append(f"entered_side is {shown(side)}, not one of the game's sides ({', '.join(ruleset.sides)}) "
                         "nor empty")
        checks = []
        for position, check in enumerate(hand.get("checks", []), 1):
            checks.append(read_check(check, position, ruleset, side, found))
            if check["action"] == "disputed" and "record" in check:
                found += [f"check {position}: {problem}"
                          for problem in disputed_record_problems(ruleset, state, number, check["record"])]
        last = checks[-1].action if checks else None
        if hand_state in ("disputed", "kept") and last != hand_state:
            found.append(f"it is {hand_state}, but the last of its checks is {shown(last) if last else 'missing'}")
        elif hand_state == "confirmed" and last is not None and last != "confirmed":
            found.append(f"it is confirmed, but the last of its checks says {last}")
        problems += [f"hand {number}: {problem}" for problem in found]
        confirmations.append(HandConfirmation(state=hand_state, entered_side=side, checks=tuple(checks)))
    return confirmations, problems


def read_check(check: Mapping[str, Any], position: int, ruleset: Ruleset, entered_side: str,
               found: list[str]) -> CheckedCheck:
    """One check of a trail, read; what is wrong with it added to ``found``."""
    action, seat = check["action"], check.get("seat", "")
    where_said = f"check {position}"
    at = None
    try:
        at = moment(check.get("at"))
    except ValueError as error:
        found.append(f"{where_said}: {error}")
    if action == "disputed" and "record" not in check:
        found.append(f"{where_said}: a dispute needs the record of the hand as the disputing player says it was")
    if action != "disputed" and "record" in check:
        found.append(f"{where_said}: only a dispute has a record")
    if action in ("confirmed", "disputed") and not seat:
        found.append(f"{where_said}: a hand is {action} by a player: say their seat")
    if action == "kept" and seat:
        found.append(f"{where_said}: a hand is kept by the scorekeeper, who has no seat")
    if seat and entered_side and ruleset.side_of(seat) == entered_side:
        found.append(f"{where_said}: {seat} is of {entered_side}, the side that entered the hand; the other "
                     "side confirms or disputes it")
    return CheckedCheck(action=action, seat=seat, via=check.get("via", "account"), at=at,
                        record=check.get("record"), note=check.get("note", ""))


def disputed_record_problems(ruleset: Ruleset, state: GameState, number: int, record: Any) -> list[str]:
    """A dispute's record must be a hand the rules allow where the hand was played."""
    before = state.hands[number - 2] if number > 1 else None
    start = ruleset.initial_state() if before is None else ruleset.resume(
        totals=before.totals, extras=before.extras, hands_played=before.number)
    try:
        ruleset.play(start, record)
    except RulesError as error:
        return [f"the disputed record: {error}"]
    return []


def check_games(document: Any) -> tuple[list[CheckedGame], list[str]]:
    """Every game of a whole document checked (:class:`GameChecker`): those that passed, and the problems."""
    if not isinstance(document.get("players"), list) or not isinstance(document.get("matches", []), list):
        return [], []  # nothing to check the games' seats and matches against: the schema said why
    checker = GameChecker(facts=facts_of(document))
    checked, problems = [], []
    for index, entry in enumerate(listed(document, "games")):
        game, found = checker.check(entry, index)
        problems += found
        if game is not None:
            checked.append(game)
    return checked, problems + checker.finish()


# --- club nights -----------------------------------------------------------------------------------------


def night_problems(document: Any, game_types: Mapping[str, Any] | None = None) -> list[str]:
    """What the schema cannot say of the document's club nights (their shapes already checked): keys used once,
    entrants and those sitting out among the players, each checked in once, rounds numbered 1 to n, table
    numbers used once a round, each table's game listed, of the night's game type and at no other table.
    ``game_types``: each game's type by key, where the document's games are not in it (read one by one)."""
    players = facts_of(document).players
    games = game_types if game_types is not None else {
        entry["key"]: entry.get("game_type") for entry in listed(document, "games")
        if isinstance(entry, dict) and isinstance(entry.get("key"), str)}
    problems = duplicates(listed(document, "nights"), "nights", document)
    tables_of: dict[str, str] = {}
    for index, night in enumerate(listed(document, "nights")):
        name = item_name("nights", index, night)
        entrants = [entrant["player"] for entrant in night.get("entrants", [])]
        problems += [f"{name}: {shown(key)} is checked in but not among the players"
                     for key in dict.fromkeys(entrants) if key not in players]
        problems += [f"{name}: {shown(key)} is checked in twice; a player is checked in to a night once"
                     for key, count in Counter(entrants).items() if count > 1]
        rounds = night.get("rounds_played", [])
        numbers = [round_["number"] for round_ in rounds]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{name}: its rounds are numbered {', '.join(map(shown, numbers))}; rounds are "
                            f"numbered 1 to {len(numbers)} in the order played")
        for round_ in rounds:
            where_round = f"{name}: round {round_['number']}"
            named = [*round_.get("sitting_out", []),
                     *(player for table in round_["tables"] for change in table.get("substitutions", [])
                       for player in (change["leaving"], change["arriving"]))]
            problems += [f"{where_round}: {shown(key)} is not among the players"
                         for key in dict.fromkeys(named) if key not in players]
            seen: set[int] = set()
            for table in round_["tables"]:
                where_table = f"{where_round}: table {table['number']}"
                if table["number"] in seen:
                    problems.append(f"{where_table}: the round has two tables {table['number']}")
                seen.add(table["number"])
                game = table["game"]
                if game not in games:
                    problems.append(f"{where_table}: its game {shown(game)} is not listed")
                elif game in tables_of:
                    problems.append(f"{where_table}: its game {game} is also {tables_of[game]}'s; a game is "
                                    "played at one table")
                elif games[game] != night["game_type"]:
                    problems.append(f"{where_table}: its game {game} is {shown(games[game])}, but the night plays "
                                    f"{night['game_type']}")
                tables_of.setdefault(game, where_table)
    return problems

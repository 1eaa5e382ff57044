"""Restoring a league backup (``league_export``'s document) into a new league, every game re-scored.

All or nothing: the whole document is read, every game replayed by the rules engine, and any problem
(a hand the rules refuse, a seat naming nobody, a date that is not one, seasons that overlap or share a
name) is reported; one problem and nothing is stored. Up to ``MAX_PROBLEMS`` are listed, each naming the
season (``season "Autumn 2026"``), or the game (``G7``) and hand.

The document's format version stays 1 while what is added to it is optional: a match's ``game_type`` and
``seasons`` came later, and a document without them still restores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import events
from games.errors import InvalidInput, NotAllowed
from games.idempotency import once
from games.models import Game, Hand, League, Match, Membership, Player, Season, game_type_name
from games.rules import SEATS, RulesError, get_ruleset, ruleset_class, shown

from .hands import apply_state, plain
from .leagues import check_default_options, checked_slug, unique_slug
from .matches import match_refresh
from .seasons import check_order, checked_date, overlap_refusal, overlaps, plain_name

FORMAT = "scorekeeper-league"
VERSION = 1
MAX_PROBLEMS = 20
JSON_KINDS: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}


class ImportRefused(InvalidInput):
    """The document cannot be imported: ``problems`` lists why (the message says the first, or how many)."""

    def __init__(self, problems: list[str]):
        shown_problems = problems[:MAX_PROBLEMS]
        message = problems[0] if len(problems) == 1 else (
            f"{len(problems)} problems, nothing was imported: " + "; ".join(shown_problems)
            + ("; ..." if len(problems) > MAX_PROBLEMS else ""))
        super().__init__(message, field="document")
        self.problems = shown_problems


@dataclass
class ImportReport:
    """What was imported: the new league and counts of everything in it."""

    league: League
    players: int = 0
    seasons: int = 0
    matches: int = 0
    hands: int = 0
    games: Counter = field(default_factory=Counter)  # by status
    game_types: Counter = field(default_factory=Counter)  # by game type name

    @classmethod
    def from_answer(cls, answer: dict[str, Any]) -> ImportReport:
        """The report of an import made earlier (a retry with the same idempotency key)."""
        games = Counter({status: answer[status] for status in ("finished", "in_progress", "abandoned")})
        return cls(league=League.objects.get(pk=answer["league"]), players=answer["players"],
                   seasons=answer.get("seasons", 0), matches=answer["matches"], hands=answer["hands"], games=games,
                   game_types=Counter(answer["game_types"]))

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "seasons": self.seasons, "games": sum(self.games.values()),
                "finished": self.games["finished"], "in_progress": self.games["in_progress"], "abandoned": self.games["abandoned"],
                "hands": self.hands, "matches": self.matches, "game_types": dict(self.game_types)}

    def sentence(self) -> str:
        """``Imported 4 players, 2 seasons, 3 games (2 Spades, 1 Trumps) with 41 hands; 2 finished, 1 in
        progress.`` (seasons only when there are some)."""
        counts = self.as_dict()
        kinds = ", ".join(f"{count} {name}" for name, count in self.game_types.items())
        parts = [plural(counts["players"], "player"),
                 *([plural(self.seasons, "season")] if self.seasons else []),
                 plural(counts["games"], "game") + (f" ({kinds})" if kinds else "")
                 + f" with {plural(counts['hands'], 'hand')}"]
        if self.matches:
            parts.append(plural(self.matches, "match", "matches"))
        states = [f"{counts[key]} {word}" for key, word in
                  (("finished", "finished"), ("in_progress", "in progress"), ("abandoned", "abandoned"))
                  if counts[key]]
        return f"Imported {', '.join(parts)}" + (f"; {', '.join(states)}." if states else ".")


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def require(document: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(document, dict) or not isinstance(document.get(key), kind):
        raise InvalidInput(f"{where}: {shown(key)} is missing or not {JSON_KINDS[kind]}", field=key)
    return document[key]


def moment(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise InvalidInput(f"{where}: {shown(value)} is not a date and time (ISO 8601)", field="date")
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, timezone.utc)


def check_header(document: Any) -> dict[str, Any]:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f"not a {FORMAT} document", field="format")
    if document.get("version") != VERSION:
        raise InvalidInput(f"version {shown(document.get('version'))} is not supported (only {VERSION})",
                           field="version")
    return require(document, "league", dict, "document")


def league_restore(*, document: Any, by, name: str | None = None, slug: str | None = None,
                   keep_slug: bool = False, idempotency_key: str | None = None) -> ImportReport:
    """Create a new league from a backup, re-scoring every game; ``by`` becomes its owner.

    ``name``/``slug``: the new league's (default: the document's; a slug already taken is replaced by a free
    one, unless ``keep_slug``, where it is refused). Refused with :class:`ImportRefused` listing every
    problem; then nothing is stored. Standings (all time and each season's) are computed in the background
    afterwards. A retry with the same ``idempotency_key`` (the form sent twice) imports nothing more and gets
    the first report.
    """
    if by is not None and not by.is_authenticated:
        raise NotAllowed("sign in to restore a league")
    about = check_header(document)

    def write() -> ImportReport:
        with transaction.atomic():
            report = restore(document, about, by=by, name=name, slug=slug, keep_slug=keep_slug)
            # Its standings are recomputed once committed, all time and each season's (none of its seasons has
            # a watermark yet, so should that never run, the catch-up task finds them).
            events.league_players_changed(report.league)
            return report

    def stored(report: ImportReport | None) -> dict[str, Any]:
        assert report is not None  # ``once`` hands over what ``write`` returned
        return {"league": report.league.pk, **report.as_dict()}

    if by is None:
        return write()
    made, answer, _ = once(user=by, scope="leagues:restore", key=idempotency_key,
                           request={"document": document, "name": name, "slug": slug}, write=write, answer=stored)
    return made if made is not None else ImportReport.from_answer(answer)


def restore(document: dict, about: dict, *, by, name, slug, keep_slug) -> ImportReport:
    name = (name or "").strip() or require(about, "name", str, "league").strip()
    if not name or len(name) > 120:
        raise InvalidInput("league: a name of 1 to 120 characters is needed", field="name")
    if slug:
        slug = checked_slug(slug)
    else:
        wanted = require(about, "slug", str, "league")
        if League.objects.filter(slug=wanted).exists():
            if keep_slug:
                raise InvalidInput(f"a league with the slug {shown(wanted)} already exists", field="slug")
            slug = unique_slug(name)
        else:
            slug = checked_slug(wanted)
    default_options = check_default_options(about.get("default_options") or {})
    league = League.objects.create(name=name, slug=slug, is_public=bool(about.get("is_public", True)),
                                   default_options=default_options, created_by=by)
    if by is not None:
        Membership.objects.create(league=league, user=by, role=Membership.Role.OWNER)
    report = ImportReport(league=league)
    players: dict[str, Player] = {}
    for entry in require(document, "players", list, "document"):
        key, player_name = require(entry, "key", str, "player"), require(entry, "name", str, "player").strip()
        if key in players or not player_name or len(player_name) > 80:
            raise InvalidInput(f"player {key}: a unique key and a name of 1 to 80 characters are needed",
                               field="players")
        players[key] = Player.objects.create(name=player_name, created_by=by)
    league.players.add(*players.values())
    report.players = len(players)
    games = require(document, "games", list, "document")
    seasons, problems = restore_seasons(document.get("seasons", []), league=league, by=by)
    matches = restore_matches(document.get("matches", []), games, league=league, players=players, by=by)
    report.matches = len(matches)
    for entry in games:
        try:
            with transaction.atomic():
                game, hands = restore_game(entry, league=league, players=players, matches=matches, by=by)
        except InvalidInput as error:
            problems.append(error.message)
            continue
        except (DatabaseError, ValueError, TypeError) as error:
            problems.append(f"game {entry.get('key') if isinstance(entry, dict) else '?'}: cannot be stored ({error})")
            continue
        report.games[game.status] += 1
        report.game_types[game_type_name(game.game_type)] += 1
        report.hands += hands
    if problems:
        raise ImportRefused(problems)
    Season.objects.bulk_create(seasons)
    report.seasons = len(seasons)
    for match in matches.values():
        match_refresh(match=match)
    return report


def restore_seasons(entries: Any, *, league: League, by) -> tuple[list[Season], list[str]]:
    """The document's seasons (not stored yet) and the problems found in them, each naming the season.

    The seasons service's rules: a name of 1 to 80 characters (spaces tidied) that no other season of the
    league has, whatever the case; dates YYYY-MM-DD, not ending before they start and overlapping no
    other season's (no end: open).
    """
    if not isinstance(entries, list):
        raise InvalidInput('document: "seasons" is not a list', field="seasons")
    seasons: list[Season] = []
    problems: list[str] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            problems.append(f"season {number}: not an object")
            continue
        where = f"season {shown(entry['name'])}" if isinstance(entry.get("name"), str) else f"season {number}"
        try:
            name = plain_name(entry.get("name"))
            where = f"season {shown(name)}"
            starts_on = season_day(entry.get("starts_on"), "starts_on")
            ends_on = None if entry.get("ends_on") is None else season_day(entry["ends_on"], "ends_on")
            check_order(starts_on, ends_on)
        except InvalidInput as error:
            problems.append(f"{where}: {error.message}")
            continue
        for other in seasons:
            if other.name.lower() == name.lower():
                problems.append(f"{where}: the backup has another season named {shown(other.name)}; the "
                                "seasons of a league need different names (whatever the case)")
                break
            if overlaps(starts_on, ends_on, other):
                problems.append(f"{where}: {overlap_refusal(other)}")
                break
        else:
            seasons.append(Season(league=league, name=name, starts_on=starts_on, ends_on=ends_on, created_by=by))
    return seasons, problems


def season_day(value: Any, key: str) -> date:
    try:
        return checked_date(value, key)
    except InvalidInput as error:
        raise InvalidInput(f"{shown(key)} is {shown(value)}: {error.message}", field="seasons") from None


def restore_matches(entries: Any, games: list, *, league, players, by) -> dict[str, Match]:
    if not isinstance(entries, list):
        raise InvalidInput('document: "matches" is not a list', field="matches")
    matches: dict[str, Match] = {}
    for entry in entries:
        key = require(entry, "key", str, "match")
        where = f"match {key}"
        seating = require(entry, "seating", dict, where)
        if set(seating) != set(SEATS) or any(seating[seat] not in players for seat in SEATS):
            raise InvalidInput(f"{where}: seating must name a listed player for each of N, E, S, W", field="matches")
        game_type = entry.get("game_type") or match_game_type(key, games)
        try:
            if not ruleset_class(game_type).match_games:
                raise InvalidInput(f"{where}: {game_type_name(game_type)} is not played in matches", field="matches")
        except RulesError as error:
            raise InvalidInput(f"{where}: {error}", field="matches") from None
        matches[key] = Match.objects.create(
            game_type=game_type, league=league, seating={seat: players[seating[seat]].pk for seat in SEATS},
            options=require(entry, "options", dict, where),
            status=Match.Status.ABANDONED if entry.get("abandoned") else Match.Status.IN_PROGRESS,
            started_at=moment(entry.get("started_at"), where) or timezone.now(), created_by=by,
        )
    return matches


def match_game_type(key: Any, games: list) -> str:
    """A match's game type, from its games (documents written before matches named theirs)."""
    for entry in games:
        if isinstance(entry, dict) and entry.get("match") == key:
            return require(entry, "game_type", str, f"game {entry.get('key')}")
    raise InvalidInput(f"match {key} has no games, so its game type is unknown", field="matches")


def restore_game(entry: Any, *, league, players, matches, by) -> tuple[Game, int]:
    where = f"game {entry.get('key') if isinstance(entry, dict) else '?'}"
    seats = require(entry, "seats", dict, where)
    if set(seats) != set(SEATS) or any(not isinstance(key, str) or key not in players for key in seats.values()):
        raise InvalidInput(f"{where}: seats must name a listed player for each of N, E, S, W", field="seats")
    hands = require(entry, "hands", list, where)
    records = [require(hand, "record", dict, f"{where}, hand {number}") for number, hand in enumerate(hands, 1)]
    match_key = entry.get("match")
    if match_key is not None and match_key not in matches:
        raise InvalidInput(f"{where}: match {shown(match_key)} is not listed", field="match")
    try:
        ruleset = get_ruleset(require(entry, "game_type", str, where), require(entry, "options", dict, where))
        state = ruleset.replay(records)
    except RulesError as error:
        raise InvalidInput(f"{where}: {error}", field="hands") from None
    rules_version = entry.get("rules_version", 1)
    if not isinstance(rules_version, int) or isinstance(rules_version, bool) or rules_version < 1:
        raise InvalidInput(f"{where}: rules_version must be a whole number from 1", field="rules_version")
    started_at = moment(entry.get("started_at"), where)
    finished_at = moment(entry.get("finished_at"), where)
    entered = [moment(hand.get("entered_at"), f"{where}, hand {number}") for number, hand in enumerate(hands, 1)]
    game = Game(
        game_type=entry["game_type"], league=league,
        north=players[seats["N"]], east=players[seats["E"]], south=players[seats["S"]], west=players[seats["W"]],
        options=dict(ruleset.options), rules_version=rules_version,
        match=matches.get(match_key), match_game_number=entry.get("match_game_number"),
        created_by=by,
    )
    apply_state(game, state)
    if entry.get("abandoned"):
        game.status = Game.Status.ABANDONED
    if started_at:
        game.started_at = started_at
    game.finished_at = finished_at
    if game.status == Game.Status.FINISHED and game.finished_at is None:
        game.finished_at = entered[-1] if entered and entered[-1] else game.started_at
    game.save()
    Hand.objects.bulk_create(
        Hand(
            game=game, number=scored.number, record=plain(scored.record), dealer=scored.dealer,
            delta=plain(scored.delta), totals=plain(scored.totals), extras=plain(scored.extras),
            details=plain(scored.details), entered_by=by, **({"entered_at": at} if at else {}),
        )
        for scored, at in zip(state.hands, entered, strict=True)
    )
    return game, len(hands)

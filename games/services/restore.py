"""Restoring a league backup (``league_export``'s document) into a new league, every game re-scored.

All or nothing: the whole document is checked before anything is stored (``games.backup.checks``: its JSON
Schema, the rules no schema can say, every game replayed by the rules engine, the seasons), and any problem
(a string where true or false belongs, a player in two seats, hands not numbered 1 to n, a game finished
before it started, an unknown rules version, a hand the rules refuse, seasons that overlap...) is
reported; one problem and nothing is stored. Up to ``MAX_PROBLEMS`` are listed, each naming the season
(``season "Autumn 2026"``), or the game (``G7``) and hand.

The document's format version stays 1 while what is added to it is optional: a match's ``game_type``,
``seasons``, confirmation by the other side, ``nights`` and a game's ``time_up_at`` came later, and a document
without them still restores (a game without ``confirmation``: off; a hand of a game with it that says nothing:
confirmed).

Each hand's confirmation and its trail are restored as they were; what follows from them (a game's count of
unconfirmed hands, and whether it is provisional) is worked out again, as recording them does.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import events
from games.backup.checks import (
    CheckedGame,
    GameChecker,
    document_problems,
    facts_of,
    listed,
    moment,
    night_problems,
)
from games.backup.schema import FORMAT, VERSION
from games.errors import InvalidInput, NotAllowed
from games.idempotency import once
from games.models import (
    PROVISIONAL_HOURS,
    Confirmation,
    Game,
    Hand,
    HandCheck,
    League,
    Match,
    Membership,
    Night,
    NightPlayer,
    NightRound,
    NightSubstitution,
    NightTable,
    Player,
    Season,
    game_type_name,
)
from games.models.nights import new_night_code
from games.rules import SEATS, shown

from .hand_checks import UNSETTLED, is_provisional
from .hands import apply_state, plain
from .leagues import check_default_options, checked_slug, unique_slug
from .matches import match_refresh
from .seasons import check_order, checked_date, overlap_refusal, overlaps, plain_name
from .transfer import batches

MAX_PROBLEMS = 20
# The most problems of the games a check keeps (it counts the rest): the memory of a refusal is bounded.
MAX_KEPT = 500
# Games written at a time (each with its hands and their trails), and hands (or checks) sent in one statement.
BATCH = 250
HAND_BATCH = 2000


class ImportRefused(InvalidInput):
    """The document cannot be imported: ``problems`` lists why, up to ``MAX_PROBLEMS`` and then how many more
    (the message says the first, or how many). ``more``: problems found but not kept, besides ``problems``."""

    def __init__(self, problems: list[str], *, more: int = 0):
        total = len(problems) + more
        shown_problems = problems[:MAX_PROBLEMS]
        message = problems[0] if total == 1 else (
            f"{total} problems, nothing was imported: " + "; ".join(shown_problems)
            + ("; ..." if total > MAX_PROBLEMS else ""))
        super().__init__(message, field="document")
        if total > len(shown_problems):
            shown_problems.append(f"and {total - len(shown_problems)} more "
                                  f"problem{'s' if total - len(shown_problems) > 1 else ''}")
        self.problems = shown_problems
        self.total = total


@dataclass
class ImportReport:
    """What was imported: the new league and counts of everything in it."""

    league: League
    players: int = 0
    seasons: int = 0
    matches: int = 0
    nights: int = 0
    hands: int = 0
    games: Counter = field(default_factory=Counter)  # by status
    game_types: Counter = field(default_factory=Counter)  # by game type name

    @classmethod
    def from_answer(cls, answer: dict[str, Any], league: League | None = None) -> ImportReport:
        """The report of an import made earlier (a retry with the same idempotency key; a restore done in the
        background, given its ``league``)."""
        games = Counter({status: answer[status] for status in ("finished", "in_progress", "abandoned")})
        return cls(league=league or League.objects.get(pk=answer["league"]), players=answer["players"],
                   seasons=answer.get("seasons", 0), matches=answer["matches"], nights=answer.get("nights", 0),
                   hands=answer["hands"], games=games,
                   game_types=Counter(answer["game_types"]))

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "seasons": self.seasons, "games": sum(self.games.values()),
                "finished": self.games["finished"], "in_progress": self.games["in_progress"], "abandoned": self.games["abandoned"],
                "hands": self.hands, "matches": self.matches, "nights": self.nights,
                "game_types": dict(self.game_types)}

    def sentence(self) -> str:
        """``Imported 4 players, 2 seasons, 3 games (2 Spades, 1 Trumps) with 41 hands, 1 club night; 2 finished,
        1 in progress.`` (seasons, matches and club nights only when there are some)."""
        counts = self.as_dict()
        kinds = ", ".join(f"{count} {name}" for name, count in self.game_types.items())
        parts = [plural(counts["players"], "player"),
                 *([plural(self.seasons, "season")] if self.seasons else []),
                 plural(counts["games"], "game") + (f" ({kinds})" if kinds else "")
                 + f" with {plural(counts['hands'], 'hand')}"]
        if self.matches:
            parts.append(plural(self.matches, "match", "matches"))
        if self.nights:
            parts.append(plural(self.nights, "club night"))
        states = [f"{counts[key]} {word}" for key, word in
                  (("finished", "finished"), ("in_progress", "in progress"), ("abandoned", "abandoned"))
                  if counts[key]]
        return f"Imported {', '.join(parts)}" + (f"; {', '.join(states)}." if states else ".")


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def check_header(document: Any) -> dict[str, Any]:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f"not a {FORMAT} document", field="format")
    if document.get("version") != VERSION:
        raise InvalidInput(f"version {shown(document.get('version'))} is not supported (only {VERSION})",
                           field="version")
    about = document.get("league")
    return about if isinstance(about, dict) else {}


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
            events.publish(events.LeaguePlayersChanged(league=report.league))
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
    head = {key: value for key, value in document.items() if key != "games"}
    if "games" in document:
        head["games"] = [] if isinstance(document["games"], list) else document["games"]
    checking = Checking(head)
    checked = [game for entry in listed(document, "games") if (game := checking.game(entry)) is not None]
    seasons, default_options = checking.verdict(about)
    writing = LeagueWriting.begin(checking, about, seasons=seasons, default_options=default_options, by=by,
                                  name=name, slug=slug, keep_slug=keep_slug)
    for batch in batches(iter(checked), BATCH):
        writing.games(batch)
    return writing.finish()


class Checking:
    """Everything a restore checks, given the document's head (all but its games) and then its games one at a
    time, as a document in memory or one read piece by piece gives them; problems are said in one order
    either way: the head's, the games' (each as it came), then the seasons', the nights' and the league's.

    At most ``MAX_KEPT`` problems of the games are kept (a backup of 100,000 broken games lists a few
    hundred of them and says how many more), so its memory is that of the head, and of each game's key.
    """

    def __init__(self, head: dict[str, Any], *, validated: bool = False):
        """``validated``: the games were checked against the schema already (writing what was checked)."""
        self.head = head
        self.validated = validated
        usable = isinstance(head.get("players"), list) and isinstance(head.get("matches", []), list)
        # Nothing to check the games' seats and matches against when those are not lists: the schema says why.
        self.checker = GameChecker(facts=facts_of(head)) if usable else None
        self.game_problems: list[str] = []
        self.more = 0
        self.count = 0
        self.game_types: dict[str, Any] = {}  # each game's type, by key, for the nights' tables
        # What :meth:`verdict` found to store, once it has passed.
        self.seasons: list[dict[str, Any]] = []
        self.default_options: dict[str, Any] = {}

    def game(self, entry: Any) -> CheckedGame | None:
        """The next game checked (re-scored); None if it has a problem (kept) or cannot be checked."""
        index, self.count = self.count, self.count + 1
        if not self.validated and isinstance(entry, dict) and isinstance(entry.get("key"), str):
            self.game_types.setdefault(entry["key"], entry.get("game_type"))
        if self.checker is None:
            return None
        game, found = self.checker.check(entry, index, validated=self.validated)
        room = max(0, MAX_KEPT - len(self.game_problems))
        self.game_problems += found[:room]
        self.more += len(found) - len(found[:room])
        return game

    def match_types(self) -> dict[str, str]:
        """Each match's game type: its own, or its games' (once they are all checked)."""
        if self.checker is None:
            return {}
        return {key: game_type or self.checker.match_types.get(key, "")
                for key, game_type in self.checker.facts.matches.items()}

    def verdict(self, about: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Once every game is checked: the seasons and house rules to store, or :class:`ImportRefused`."""
        problems = document_problems(self.head)
        problems += self.game_problems
        more = self.more
        if self.checker is not None:
            problems += self.checker.finish()
        seasons: list[dict[str, Any]] = []
        if not any(problem.startswith("season") for problem in problems):  # their shape first, then their rules
            seasons, season_problems = restore_seasons(self.head.get("seasons", []))
            problems += season_problems
        if not any(problem.startswith("night") for problem in problems):  # their shape first, then their rules
            problems += night_problems(self.head, game_types=self.game_types)
        default_options: dict[str, Any] = {}
        try:
            default_options = check_default_options(about.get("default_options") or {})
        except InvalidInput as error:
            problems.append(f"league: {error.message}")
        if problems:
            raise ImportRefused(problems, more=more)
        return seasons, default_options

    def forget_games(self) -> None:
        """Once checked, the games' keys are no longer needed (only the matches' game types are)."""
        self.game_types = {}
        if self.checker is not None:
            self.checker.keys.clear()
            self.checker.match_slots.clear()


@dataclass
class LeagueWriting:
    """Writing a checked backup (inside the caller's transaction): the league, its players, seasons and matches
    first, then its games a batch at a time (:meth:`games`), then its matches brought up to date and its club
    nights (:meth:`finish`). Only the keys of the games a night's table names are kept from batch to batch."""

    report: ImportReport
    head: dict[str, Any]
    players: dict[str, Player]
    matches: dict[str, Match]
    by: Any
    night_games: set[str]
    games_at_tables: dict[str, Game] = field(default_factory=dict)

    @classmethod
    def begin(cls, checking: Checking, about: dict[str, Any], *, seasons: list[dict[str, Any]],
              default_options: dict[str, Any], by, name, slug, keep_slug) -> LeagueWriting:
        head = checking.head
        name = (name or "").strip() or about["name"].strip()
        if len(name) > 120:
            raise InvalidInput("league: a name of 1 to 120 characters is needed", field="name")
        if slug:
            slug = checked_slug(slug)
        else:
            wanted = about["slug"]
            if League.objects.filter(slug=wanted).exists():
                if keep_slug:
                    raise InvalidInput(f"a league with the slug {shown(wanted)} already exists", field="slug")
                slug = unique_slug(name)
            else:
                slug = checked_slug(wanted)
        league = League.objects.create(name=name, slug=slug, is_public=about.get("is_public", True),
                                       default_options=default_options, created_by=by,
                                       confirmation=about.get("confirmation", Confirmation.OFF),
                                       provisional_hours=about.get("provisional_hours", PROVISIONAL_HOURS))
        if by is not None:
            Membership.objects.create(league=league, user=by, role=Membership.Role.OWNER)
        report = ImportReport(league=league)
        entries = listed(head, "players")
        made = Player.objects.bulk_create(Player(name=" ".join(entry["name"].split()), created_by=by)
                                          for entry in entries)
        players = {entry["key"]: player for entry, player in zip(entries, made, strict=True)}
        league.players.add(*players.values())
        report.players = len(players)
        Season.objects.bulk_create([Season(league=league, created_by=by, **season) for season in seasons])
        report.seasons = len(seasons)
        matches = restore_matches(head, checking.match_types(), league=league, players=players, by=by)
        report.matches = len(matches)
        night_games = {table["game"] for night in listed(head, "nights") for played in night.get("rounds_played", [])
                       for table in played["tables"]}
        return cls(report=report, head=head, players=players, matches=matches, by=by, night_games=night_games)

    def games(self, batch: list[CheckedGame]) -> None:
        """Store a batch of checked games with their hands (and their trails), a few queries for the batch."""
        for game, entry in zip(store_games(batch, league=self.report.league, players=self.players,
                                           matches=self.matches, by=self.by), batch, strict=True):
            self.report.games[game.status] += 1
            self.report.game_types[game_type_name(game.game_type)] += 1
            self.report.hands += len(entry.entered)
            if entry.key in self.night_games:
                self.games_at_tables[entry.key] = game

    def finish(self) -> ImportReport:
        for match in self.matches.values():
            match_refresh(match=match)
        self.report.nights = restore_nights(listed(self.head, "nights"), league=self.report.league,
                                            players=self.players, games=self.games_at_tables, by=self.by)
        return self.report


def restore_nights(entries: list[dict[str, Any]], *, league: League, players: dict[str, Player],
                   games: dict[str, Game], by) -> int:
    """The document's club nights (checked), each with a new code; how many."""
    for entry in entries:
        night = Night.objects.create(
            league=league, name=" ".join(entry["name"].split()), game_type=entry["game_type"], options=entry["options"],
            movement=entry.get("movement", Night.Movement.INDIVIDUAL),
            round_end=entry.get("round_end", Night.RoundEnd.HANDS), hands=entry.get("hands"),
            minutes=entry.get("minutes"), rounds=entry["rounds"], status=entry.get("status", Night.Status.CHECKING_IN),
            code=new_night_code(), created_by=by, created_at=moment(entry.get("created_at")) or timezone.now(),
            finished_at=moment(entry.get("finished_at")))
        NightPlayer.objects.bulk_create(
            NightPlayer(night=night, player=players[came["player"]], order=order, pair=came.get("pair"),
                        arrived_at=moment(came.get("arrived_at")) or night.created_at,
                        left_at=moment(came.get("left_at")), checked_in_by=by)
            for order, came in enumerate(entry.get("entrants", []), start=1))
        for played in entry.get("rounds_played", []):
            round_ = NightRound.objects.create(
                night=night, number=played["number"], started_at=moment(played.get("started_at")) or night.created_at,
                time_up_at=moment(played.get("time_up_at")),
                sitting_out=[players[key].pk for key in played.get("sitting_out", [])])
            for table in played["tables"]:
                seated = NightTable.objects.create(round=round_, number=table["number"], game=games[table["game"]])
                NightSubstitution.objects.bulk_create(
                    NightSubstitution(table=seated, seat=change["seat"], leaving=players[change["leaving"]],
                                      arriving=players[change["arriving"]], after_hands=change.get("after_hands", 0),
                                      by=by, **({"at": moment(change["at"])} if change.get("at") else {}))
                    for change in table.get("substitutions", []))
    return len(entries)


def restore_seasons(entries: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The document's seasons (name, first and last day; their shape already checked) and the problems found
    in them, each naming the season.

    The seasons service's rules: a name that no other season of the league has, whatever the case; not
    ending before they start and overlapping no other season's (no end: open).
    """
    seasons: list[Season] = []
    problems: list[str] = []
    seasons_given: list[Any] = entries if isinstance(entries, list) else []
    for entry in seasons_given:
        name = plain_name(entry["name"])
        where = f"season {shown(name)}"
        starts_on = checked_date(entry["starts_on"], "starts_on")
        ends_on = None if entry.get("ends_on") is None else checked_date(entry["ends_on"], "ends_on")
        try:
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
            seasons.append(Season(name=name, starts_on=starts_on, ends_on=ends_on))
    return [{"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
            for season in seasons], problems


def restore_matches(document: dict, match_types: dict[str, str], *, league, players, by) -> dict[str, Match]:
    """The document's matches (checked), each with its game type (named, or its games')."""
    entries = listed(document, "matches")
    made = Match.objects.bulk_create(
        Match(game_type=match_types[entry["key"]], league=league,
              seating={seat: players[entry["seating"][seat]].pk for seat in SEATS}, options=entry["options"],
              status=Match.Status.ABANDONED if entry.get("abandoned") else Match.Status.IN_PROGRESS,
              started_at=moment(entry.get("started_at")) or timezone.now(), created_by=by)
        for entry in entries)
    return {entry["key"]: match for entry, match in zip(entries, made, strict=True)}


def store_games(batch: list[CheckedGame], *, league, players, matches, by) -> list[Game]:
    """Store checked games and their hands as re-scored (and their confirmation trails): a few queries a batch."""
    games = Game.objects.bulk_create([game_row(checked, league=league, players=players, matches=matches, by=by)
                                      for checked in batch])
    Hand.objects.bulk_create([
        Hand(
            game=game, number=scored.number, record=plain(scored.record), dealer=scored.dealer,
            delta=plain(scored.delta), totals=plain(scored.totals), extras=plain(scored.extras),
            details=plain(scored.details), entered_by=by, **({"entered_at": at} if at else {}),
            **({"check_state": checked.confirmations[index].state,
                "entered_side": checked.confirmations[index].entered_side} if checked.confirmations else {}),
        )
        for game, checked in zip(games, batch, strict=True)
        for index, (scored, at) in enumerate(zip(checked.state.hands, checked.entered, strict=True))
    ], batch_size=HAND_BATCH)
    confirmed = {game.pk: checked for game, checked in zip(games, batch, strict=True) if checked.confirmations}
    if confirmed:
        hands: dict[int, list[Hand]] = {}
        for hand in Hand.objects.filter(game_id__in=list(confirmed)).order_by("game_id", "number"):
            hands.setdefault(hand.game_id, []).append(hand)
        HandCheck.objects.bulk_create([row for game in games if game.pk in confirmed
                                       for row in check_rows(game, confirmed[game.pk], hands.get(game.pk, []))],
                                      batch_size=HAND_BATCH)
    return games


def game_row(checked: CheckedGame, *, league, players, matches, by) -> Game:
    """A checked game as its row (not yet stored)."""
    seats = {seat: players[key] for seat, key in checked.seats.items()}
    game = Game(
        game_type=checked.game_type, league=league,
        north=seats["N"], east=seats["E"], south=seats["S"], west=seats["W"],
        options=dict(checked.ruleset.options), rules_version=checked.rules_version,
        match=matches.get(checked.match), match_game_number=checked.match_game_number,
        created_by=by,
    )
    apply_state(game, checked.state)
    if checked.abandoned:
        game.status = Game.Status.ABANDONED
    if checked.started_at:
        game.started_at = checked.started_at
    game.finished_at = checked.finished_at
    game.time_up_at = checked.time_up_at
    if game.status == Game.Status.FINISHED and game.finished_at is None:
        last = checked.entered[-1] if checked.entered else None
        game.finished_at = last or game.started_at
    if checked.confirmation == Confirmation.OPPONENTS:
        game.confirmation = Confirmation.OPPONENTS
        game.unconfirmed = sum(1 for hand in checked.confirmations if hand.state in UNSETTLED)
        game.provisional = is_provisional(game, now=timezone.now())
    return game


def check_rows(game: Game, checked: CheckedGame, hands: list[Hand]) -> list[HandCheck]:
    """The hands' confirmation trails. The check that made a hand what it is now is of the hand as restored
    (its version); the earlier ones were of a version of it the backup does not carry (a correction since)."""
    rows = []
    for hand, confirmation in zip(hands, checked.confirmations, strict=True):
        last = len(confirmation.checks) - 1
        for index, check in enumerate(confirmation.checks):
            current = index == last and confirmation.state == check.action
            version = hand.version if current else hashlib.sha256(
                f"earlier:{hand.pk}:{index}".encode()).hexdigest()[:20]
            rows.append(HandCheck(
                hand=hand, game=game, number=hand.number, action=check.action, seat=check.seat, via=check.via,
                by=None, hand_version=version, record=plain(check.record) if check.record is not None else None,
                note=check.note, **({"at": check.at} if check.at else {})))
    return rows

"""A league as a JSON document: export it, import it elsewhere, re-score it with the engine alone.

The document names players and games by their place in the league (``P1``, ``G1``...), not by
database ids, so exporting an imported league gives back the same document.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime

from games.errors import InvalidInput
from games.models import Game, Hand, League, Match, Player
from games.rules import SEATS, RulesError, get_ruleset, shown

from .hands import apply_state, plain
from .matches import match_refresh

FORMAT = "scorekeeper-league"
VERSION = 1
# How the messages name the JSON kinds a document's parts must be.
JSON_KINDS: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}


def stamp(moment) -> str | None:
    return moment.isoformat() if moment else None


def league_export(*, league: League) -> dict[str, Any]:
    games = list(
        Game.objects.filter(league=league).order_by("started_at", "id").prefetch_related("hands")
    )
    matches = list(Match.objects.filter(league=league).order_by("started_at", "id"))
    player_ids = sorted({pk for game in games for pk in game.seat_ids.values()})
    players = Player.objects.in_bulk(player_ids)
    player_key = {pk: f"P{n}" for n, pk in enumerate(player_ids, start=1)}
    match_key = {match.pk: f"M{n}" for n, match in enumerate(matches, start=1)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "league": {
            "name": league.name,
            "slug": league.slug,
            "is_public": league.is_public,
            "default_options": league.default_options,
        },
        "players": [{"key": player_key[pk], "name": players[pk].name} for pk in player_ids],
        "matches": [
            {
                "key": match_key[match.pk],
                "game_type": match.game_type,
                "seating": {seat: player_key[pk] for seat, pk in match.seating.items()},
                "options": match.options,
                "abandoned": match.status == Match.Status.ABANDONED,
                "started_at": stamp(match.started_at),
            }
            for match in matches
        ],
        "games": [
            {
                "key": f"G{n}",
                "game_type": game.game_type,
                "seats": {seat: player_key[pk] for seat, pk in game.seat_ids.items()},
                "options": game.options,
                "rules_version": game.rules_version,
                "abandoned": game.status == Game.Status.ABANDONED,
                "match": match_key.get(game.match_id),
                "match_game_number": game.match_game_number,
                "started_at": stamp(game.started_at),
                "finished_at": stamp(game.finished_at),
                "hands": [
                    {"number": hand.number, "record": hand.record, "entered_at": stamp(hand.entered_at)}
                    for hand in sorted(game.hands.all(), key=lambda hand: hand.number)
                ],
            }
            for n, game in enumerate(games, start=1)
        ],
    }


def require(document: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(document, dict) or not isinstance(document.get(key), kind):
        raise InvalidInput(f"{where}: {shown(key)} is missing or not {JSON_KINDS[kind]}", field=key)
    return document[key]


@transaction.atomic
def league_import(*, document: dict[str, Any], by=None) -> League:
    """Create the league in ``document``, re-scoring every game with the engine. All or nothing."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f"not a {FORMAT} document", field="format")
    if document.get("version") != VERSION:
        raise InvalidInput(f"version {shown(document.get('version'))} is not supported (only {VERSION})",
                           field="version")
    about = require(document, "league", dict, "document")
    slug = require(about, "slug", str, "league")
    if League.objects.filter(slug=slug).exists():
        raise InvalidInput(f"a league with the slug {shown(slug)} already exists", field="slug")
    league = League.objects.create(
        name=require(about, "name", str, "league"), slug=slug, is_public=bool(about.get("is_public", True)),
        default_options=about.get("default_options") or {}, created_by=by,
    )
    players = {}
    for entry in require(document, "players", list, "document"):
        players[require(entry, "key", str, "player")] = Player.objects.create(
            name=require(entry, "name", str, "player"), created_by=by
        )
    league.players.add(*players.values())
    matches = {}
    games = require(document, "games", list, "document")
    for entry in document.get("matches", []):
        where = f"match {entry.get('key')}"
        matches[entry["key"]] = Match.objects.create(
            game_type=entry.get("game_type") or match_game_type(entry.get("key"), games),
            league=league,
            seating={seat: players[key].pk for seat, key in require(entry, "seating", dict, where).items()},
            options=require(entry, "options", dict, where),
            status=Match.Status.ABANDONED if entry.get("abandoned") else Match.Status.IN_PROGRESS,
            started_at=parse_datetime(entry["started_at"]) if entry.get("started_at") else None,
            created_by=by,
        )
    for entry in games:
        import_game(entry, league=league, players=players, matches=matches, by=by)
    for match in matches.values():
        match_refresh(match=match)
    return league


def match_game_type(key: Any, games: list) -> str:
    """A match's game type, from its games (documents written before matches named theirs)."""
    for entry in games:
        if isinstance(entry, dict) and entry.get("match") == key:
            return require(entry, "game_type", str, f"game {entry.get('key')}")
    raise InvalidInput(f"match {key} has no games, so its game type is unknown", field="matches")


def import_game(entry: dict, *, league, players, matches, by) -> Game:
    where = f"game {entry.get('key')}"
    seats = require(entry, "seats", dict, where)
    if set(seats) != set(SEATS) or any(key not in players for key in seats.values()):
        raise InvalidInput(f"{where}: seats must name a listed player for each of N, E, S, W", field="seats")
    hands = require(entry, "hands", list, where)
    try:
        ruleset = get_ruleset(require(entry, "game_type", str, where), require(entry, "options", dict, where))
        state = ruleset.replay([require(hand, "record", dict, where) for hand in hands])
    except RulesError as error:
        raise InvalidInput(f"{where}: {error}", field="hands") from None
    game = Game(
        game_type=entry["game_type"], league=league,
        north=players[seats["N"]], east=players[seats["E"]], south=players[seats["S"]], west=players[seats["W"]],
        options=dict(ruleset.options), rules_version=entry.get("rules_version", 1),
        match=matches.get(entry.get("match")), match_game_number=entry.get("match_game_number"),
        created_by=by,
    )
    apply_state(game, state)
    if entry.get("abandoned"):
        game.status = Game.Status.ABANDONED
    if entry.get("started_at"):
        game.started_at = parse_datetime(entry["started_at"])
    game.finished_at = parse_datetime(entry["finished_at"]) if entry.get("finished_at") else None
    game.save()
    Hand.objects.bulk_create(
        Hand(
            game=game, number=scored.number, record=plain(scored.record), dealer=scored.dealer,
            delta=plain(scored.delta), totals=plain(scored.totals), extras=plain(scored.extras),
            details=plain(scored.details), entered_by=by,
            **({"entered_at": parse_datetime(raw["entered_at"])} if raw.get("entered_at") else {}),
        )
        for scored, raw in zip(state.hands, hands, strict=True)
    )
    return game

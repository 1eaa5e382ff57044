"""A league as a JSON document: export it, import it elsewhere, re-score it with the engine alone.

The document names players and games by their place in the league (``P1``, ``G1``...), not by
database ids, so exporting an imported league gives back the same document.

:func:`league_backup` writes it piece by piece, the games a batch at a time with their hands, so that a
league of any size is sent as it is read, in the memory of one batch (docs/league-backup.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

import orjson
from django.utils import timezone

from games.backup.schema import FORMAT, VERSION
from games.models import (
    Game,
    Hand,
    HandCheck,
    League,
    Match,
    Night,
    NightPlayer,
    NightRound,
    NightSubstitution,
    NightTable,
    Player,
    Season,
)

# Games read (with their hands) and written at a time.
BATCH = 500
GAME_COLUMNS = ("id", "game_type", *(f"{name}_id" for name in Game.SEAT_FIELDS.values()), "options",
                "rules_version", "status", "match_id", "match_game_number", "started_at", "finished_at", "time_up_at",
                "confirmation")
CHECK_COLUMNS = ("game_id", "number", "action", "seat", "via", "at", "record", "note")


def batches(rows: Iterator[Any], size: int) -> Iterator[list[Any]]:
    while batch := list(islice(rows, size)):
        yield batch


def stamp(moment) -> str | None:
    return moment.isoformat() if moment else None


def league_export(*, league: League) -> dict[str, Any]:
    """The league as one document (docs/league-backup.md; JSON Schema docs/league-backup.schema.json): its
    settings, players, seasons (oldest first), matches and games with their options, rules version and every
    hand as entered, and its club nights. In memory: for a small league (the backup itself is :func:`league_backup`)."""
    return orjson.loads(b"".join(league_backup(league=league)))


def league_backup(*, league: League) -> Iterator[bytes]:
    """:func:`league_export`'s document as UTF-8 JSON, piece by piece: its head (settings, players, seasons,
    matches), then the games, ``BATCH`` at a time with their hands, one line each, then the club nights. A fixed
    number of queries per batch; the memory of one batch (and of the nights), whatever the league's size."""
    games = Game.objects.filter(league=league).order_by("started_at", "id")
    # Everyone on the league's roster, and everyone who sat in its games.
    player_ids = set(league.players.values_list("pk", flat=True))
    # One statement whose answer is the few hundred players, not the seats of every game: the first byte of
    # a large league's backup is not kept waiting on a read of all its games.
    seat_columns = [games.order_by().values_list(f"{name}_id", flat=True) for name in Game.SEAT_FIELDS.values()]
    player_ids.update(seat_columns[0].union(*seat_columns[1:]))
    # ... and everyone checked in to its club nights.
    player_ids.update(NightPlayer.objects.filter(night__league=league).values_list("player_id", flat=True))
    player_ids.discard(None)
    ordered = sorted(player_ids)
    player_key = {pk: f"P{n}" for n, pk in enumerate(ordered, start=1)}
    names = dict(Player.objects.filter(pk__in=ordered).values_list("pk", "name").iterator(chunk_size=BATCH))
    match_key: dict[int, str] = {}
    matches = []
    for n, match in enumerate(Match.objects.filter(league=league).order_by("started_at", "id")
                              .iterator(chunk_size=BATCH), start=1):
        match_key[match.pk] = f"M{n}"
        matches.append({
            "key": match_key[match.pk],
            "game_type": match.game_type,
            "seating": {seat: player_key[pk] for seat, pk in match.seating.items()},
            "options": match.options,
            "abandoned": match.status == Match.Status.ABANDONED,
            "started_at": stamp(match.started_at),
        })
    head = {
        "format": FORMAT,
        "version": VERSION,
        "league": {
            "name": league.name,
            "slug": league.slug,
            "is_public": league.is_public,
            "default_options": league.default_options,
            "confirmation": league.confirmation,
            "provisional_hours": league.provisional_hours,
        },
        "players": [{"key": player_key[pk], "name": names[pk]} for pk in ordered],
        "seasons": [
            {"name": season.name, "starts_on": season.starts_on.isoformat(),
             "ends_on": season.ends_on.isoformat() if season.ends_on else None}
            for season in Season.objects.filter(league=league).order_by("starts_on", "id")
        ],
        "matches": matches,
    }
    # The head without its closing brace, then the games' list.
    yield orjson.dumps(head)[:-1] + b',"games":['
    del head, matches, names
    seats = list(Game.SEAT_FIELDS)
    # The keys of the games at a club night's table, as they are written.
    night_games = set(NightTable.objects.filter(round__night__league=league).values_list("game_id", flat=True))
    game_key: dict[int, str] = {}
    number = 0
    for rows in batches(games.values_list(*GAME_COLUMNS).iterator(chunk_size=BATCH), BATCH):
        hands: dict[int, list[dict[str, Any]]] = {row[0]: [] for row in rows}
        trails = checks_of(list(hands))
        for game_id, hand_number, record, entered_at, check_state, entered_side in (
                Hand.objects.filter(game_id__in=list(hands)).order_by("game_id", "number")
                .values_list("game_id", "number", "record", "entered_at", "check_state", "entered_side")):
            hand = {"number": hand_number, "record": record, "entered_at": stamp(entered_at)}
            if check_state:  # a game whose hands the other side confirms
                hand.update(confirmation=check_state, entered_side=entered_side,
                            checks=trails.get((game_id, hand_number), []))
            hands[game_id].append(hand)
        chunk = []
        for (game_id, game_type, *seated, options, rules_version, status, match_id, match_game_number,
             started_at, finished_at, time_up_at, confirmation) in rows:
            number += 1
            if game_id in night_games:
                game_key[game_id] = f"G{number}"
            chunk.append(orjson.dumps({
                "key": f"G{number}",
                "game_type": game_type,
                "seats": {seat: player_key[pk] for seat, pk in zip(seats, seated, strict=True)},
                "options": options,
                "rules_version": rules_version,
                "abandoned": status == Game.Status.ABANDONED,
                "match": match_key.get(match_id) if match_id else None,
                "match_game_number": match_game_number,
                "started_at": stamp(started_at),
                "finished_at": stamp(finished_at),
                # Only a club night's game in a round with a time limit has one.
                **({"time_up_at": stamp(time_up_at)} if time_up_at else {}),
                "confirmation": confirmation,
                "hands": hands[game_id],
            }))
        yield (b"\n" if number == len(rows) else b",\n") + b",\n".join(chunk)  # a comma after the batch before
    yield b"\n]," + orjson.dumps({"nights": league_nights(league, player_key, game_key)})[1:] + b"\n"


def league_nights(league: League, player_key: dict[int, str], game_key: dict[int, str]) -> list[dict[str, Any]]:
    """The league's club nights, oldest first, players and games by their keys in the document. Five queries."""
    nights = list(Night.objects.filter(league=league).order_by("created_at", "id"))
    entrants = NightPlayer.objects.filter(night__league=league).order_by("night_id", "order", "id")
    rounds = NightRound.objects.filter(night__league=league).order_by("night_id", "number")
    tables = NightTable.objects.filter(round__night__league=league).order_by("round_id", "number")
    substitutions = NightSubstitution.objects.filter(table__round__night__league=league).order_by("at", "id")
    changes: dict[int, list[dict[str, Any]]] = {}
    for change in substitutions:
        changes.setdefault(change.table_id, []).append({
            "seat": change.seat, "leaving": player_key[change.leaving_id], "arriving": player_key[change.arriving_id],
            "after_hands": change.after_hands, "at": stamp(change.at)})
    by_round: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append({"number": table.number, "game": game_key[table.game_id],
                                                        "substitutions": changes.get(table.pk, [])})
    played: dict[int, list[dict[str, Any]]] = {}
    for round_ in rounds:
        played.setdefault(round_.night_id, []).append({
            "number": round_.number, "started_at": stamp(round_.started_at), "time_up_at": stamp(round_.time_up_at),
            "sitting_out": [player_key[pk] for pk in round_.sitting_out if pk in player_key],
            "tables": by_round.get(round_.pk, [])})
    came: dict[int, list[dict[str, Any]]] = {}
    for entrant in entrants:
        came.setdefault(entrant.night_id, []).append({
            "player": player_key[entrant.player_id], "pair": entrant.pair, "arrived_at": stamp(entrant.arrived_at),
            "left_at": stamp(entrant.left_at)})
    return [{
        "key": f"N{number}", "name": night.name, "game_type": night.game_type, "options": night.options,
        "movement": night.movement, "round_end": night.round_end, "hands": night.hands, "minutes": night.minutes,
        "rounds": night.rounds, "status": night.status, "created_at": stamp(night.created_at),
        "finished_at": stamp(night.finished_at), "entrants": came.get(night.pk, []),
        "rounds_played": played.get(night.pk, []),
    } for number, night in enumerate(nights, start=1)]


def checks_of(game_ids: list[int]) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """The confirmation trail of every hand of these games, oldest first, by (game id, hand number). One query.
    Who made each check is said by their seat (the backup names no accounts)."""
    trails: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for game_id, number, action, seat, via, at, record, note in (
            HandCheck.objects.filter(game_id__in=game_ids).order_by("game_id", "number", "at", "id")
            .values_list(*CHECK_COLUMNS)):
        check = {"action": action, "seat": seat, "via": via, "at": stamp(at), "note": note}
        if record is not None:
            check["record"] = record
        trails.setdefault((game_id, number), []).append(check)
    return trails


def backup_filename(league: League) -> str:
    """What a league's backup is saved as: ``thursday-club-backup-2026-03-05.json``."""
    return f"{league.slug}-backup-{timezone.localdate():%Y-%m-%d}.json"

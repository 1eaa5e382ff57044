"""A league as a JSON document: export it, import it elsewhere, re-score it with the engine alone.

The document names players and games by their place in the league (``P1``, ``G1``...), not by
database ids, so exporting an imported league gives back the same document.
"""

from __future__ import annotations

from typing import Any

from games.backup.schema import FORMAT, VERSION
from games.models import Game, League, Match, Player, Season


def stamp(moment) -> str | None:
    return moment.isoformat() if moment else None


def league_export(*, league: League) -> dict[str, Any]:
    """The league as one document (docs/league-backup.md; JSON Schema docs/league-backup.schema.json): its
    settings, players, seasons (oldest first), matches and games with their options, rules version and every
    hand as entered."""
    games = list(
        Game.objects.filter(league=league).order_by("started_at", "id").prefetch_related("hands")
    )
    matches = list(Match.objects.filter(league=league).order_by("started_at", "id"))
    # Everyone on the league's roster, and everyone who sat in its games.
    roster = set(league.players.values_list("pk", flat=True))
    player_ids = sorted(roster | {pk for game in games for pk in game.seat_ids.values()})
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
        "seasons": [
            {"name": season.name, "starts_on": season.starts_on.isoformat(),
             "ends_on": season.ends_on.isoformat() if season.ends_on else None}
            for season in Season.objects.filter(league=league).order_by("starts_on", "id")
        ],
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

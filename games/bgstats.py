"""A finished game as a BG Stats play: the app's push link, so a player's own play log fills itself.

BG Stats (an app for logging board game plays) documents a link that opens its import dialog:
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``. The JSON names the game, the
date (``yyyy-MM-dd HH:mm:ss``, UTC, when the game ended), the duration in minutes and each player with
their score, rank and whether they won. The app matches games and players to its own by the ``source``
ids given, remembering each match, so these ids stay the same from game to game. In a partnership game
both partners get their side's score; ``role`` names the side. Whether the highest score wins and each
player's rank are the game's own (its ruleset's ``lower_wins`` and ``places``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from games.models import Game
from games.summary import game_summary

PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Scorekeeper"
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def play_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def bgstats_play(game: Game) -> dict[str, Any] | None:
    """The play BG Stats imports for a finished game; None for a game not finished. No query beyond the
    game's seats and league (load them with the game)."""
    summary = game_summary(game)
    if not summary.finished or game.finished_at is None:
        return None
    players = game.seats
    ruleset = game.ruleset
    # BG Stats ranks from 1; the game's rules place the winners first, then the rest by their totals.
    places = ruleset.places(summary.totals, [side.key for side in summary.sides if side.winner])
    entries = []
    for side in summary.sides:
        for seat in side.seats:
            player = players[seat]
            entries.append({
                "name": player.name,
                "sourcePlayerId": f"scorekeeper-player-{player.pk}",
                "score": side.total,
                "winner": side.winner,
                "rank": places[side.key] + 1,
                "role": "–".join(SEAT_WORDS[s] for s in side.seats) if ruleset.partnerships else "",
            })
    minutes = max(1, round((game.finished_at - game.started_at).total_seconds() / 60))
    final = ", ".join(f"{' & '.join(players[s].name for s in side.seats)} {side.total}" for side in summary.sides)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"scorekeeper-game-{game.pk}",
        "playDate": play_date(game.finished_at),
        "durationMin": minutes,
        "comments": f"Final score: {final} after {game.hand_count} hands.",
        "game": {"name": game.game_type_name, "sourceGameId": f"scorekeeper-{game.game_type}",
                 "highestWins": not ruleset.lower_wins, "noPoints": False},
        "players": entries,
    }
    if game.league_id:
        play["location"] = game.league.name
    return play


def bgstats_url(game: Game) -> str | None:
    """The push link for a finished game (None otherwise)."""
    play = bgstats_play(game)
    if play is None:
        return None
    return f"{PUSH_URL}?data={quote(json.dumps(play, separators=(',', ':'), ensure_ascii=False), safe='')}"

"""The "Log in BG Stats" link on a finished game: BG Stats' documented push link, built from the game."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape
from urllib.parse import parse_qs, urlsplit

from games.bgstats import bgstats_play
from games.models import Game
from games.services import hand_record

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}


def finished(start_game, owner) -> Game:
    game = start_game("spades", target=100)
    hand_record(game=game, record=HAND, by=owner)
    hand_record(game=game, record=HAND, by=owner)
    game = Game.objects.select_related("league", "north", "east", "south", "west").get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(started_at=game.finished_at - timedelta(minutes=42))
    game.refresh_from_db()
    return game


def test_the_play_names_players_scores_winner_date_and_duration(start_game, owner, seats):
    game = finished(start_game, owner)
    play = bgstats_play(game)
    assert play["sourceName"] == "Scorekeeper" and play["sourcePlayId"] == f"scorekeeper-game-{game.pk}"
    assert play["game"] == {"name": "Spades", "sourceGameId": "scorekeeper-spades", "highestWins": True,
                            "noPoints": False}
    assert play["durationMin"] == 42 and play["location"] == "Thursday Club"
    assert play["playDate"] == game.finished_at.strftime("%Y-%m-%d %H:%M:%S")  # UTC, as BG Stats reads it
    by_name = {player["name"]: player for player in play["players"]}
    assert by_name["Ann"] == {"name": "Ann", "sourcePlayerId": f"scorekeeper-player-{seats['N']}", "score": 144,
                              "winner": True, "rank": 1, "role": "North–South"}
    assert by_name["Ben"]["score"] == -100 and by_name["Ben"]["winner"] is False and by_name["Ben"]["rank"] == 2
    assert by_name["Cat"]["winner"] is True and by_name["Dan"]["role"] == "East–West"


def test_no_play_for_a_game_still_going(start_game):
    assert bgstats_play(start_game("spades")) is None


def test_the_finished_game_page_links_to_bg_stats(client, start_game, owner):
    game = finished(start_game, owner)
    page = client.get(f"/games/{game.pk}/").content.decode()
    link = unescape(re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', page).group(1))
    parts = urlsplit(link)
    data = json.loads(parse_qs(parts.query)["data"][0])
    assert data == json.loads(json.dumps(bgstats_play(game)))
    assert "Log in BG Stats" in page and f"/games/{game.pk}/hands.csv" in page


def test_a_game_in_progress_has_no_link(client, start_game):
    game = start_game("spades")
    assert "bgstatsapp" not in client.get(f"/games/{game.pk}/").content.decode()

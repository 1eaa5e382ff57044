"""What the selectors return: plain dicts of the stored standings, ratings and figures."""

from __future__ import annotations

import pytest

from games.standings.selectors import league_standings, player_figures, player_ratings

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league, players, play_game, recompute):
    play_game("spades", winner="NS")
    play_game("spades", winner="EW")
    play_game("spades", winner="NS")
    play_game("smudge", winner="EW")
    recompute()
    return players


def test_league_standings_lists_each_game_type_with_players_and_partnerships(league, played):
    ann, ben, cat, dan = played
    standings = league_standings(league=league)

    assert standings["league"] == {"id": league.pk, "slug": league.slug, "name": "Thursday Club"}
    assert standings["computed_at"] is not None
    assert [table["game_type"] for table in standings["game_types"]] == ["spades", "smudge"]
    spades = standings["game_types"][0]
    assert spades["name"] == "Spades"
    assert [entry["player"]["name"] for entry in spades["players"]] == ["Ann", "Cat", "Ben", "Dan"]
    first = spades["players"][0]
    assert {key: first[key] for key in ("played", "won", "lost", "win_rate", "streak", "matches")} == {
        "played": 3, "won": 2, "lost": 1, "win_rate": 0.6667, "streak": "W1", "matches": None}
    assert set(first["rating"]) == {"mu", "sigma", "ordinal", "rank", "rated"}
    assert first["rating"]["rank"] == 1
    assert [[p["name"] for p in entry["players"]] for entry in spades["partnerships"]] == [
        ["Ann", "Cat"], ["Ben", "Dan"]]
    assert "rating" not in spades["partnerships"][0]


def test_league_standings_for_one_game_type(league, played):
    standings = league_standings(league=league, game_type="smudge")
    assert [table["game_type"] for table in standings["game_types"]] == ["smudge"]
    assert standings["game_types"][0]["players"][0]["player"]["name"] in ("Ben", "Dan")
    empty = league_standings(league=league, game_type="trumps")
    assert empty["game_types"] == [{"game_type": "trumps", "name": "Trumps", "players": [], "partnerships": []}]


def test_a_league_with_no_results(league):
    assert league_standings(league=league) == {
        "league": {"id": league.pk, "slug": league.slug, "name": league.name}, "season": None,
        "computed_at": None, "game_types": []}


def test_player_ratings_with_history(league, played):
    ann = played[0]
    ratings = player_ratings(player=ann)
    assert [(entry["league"]["id"], entry["game_type"]) for entry in ratings] == [
        (league.pk, "spades"), (league.pk, "smudge")]
    spades = ratings[0]
    assert spades["rated"] == 3 and len(spades["history"]) == 3
    assert [point["sequence"] for point in spades["history"]] == [1, 2, 3]
    assert spades["history"][-1]["ordinal"] == spades["ordinal"]
    assert set(spades["history"][0]) == {"sequence", "played_at", "game", "match", "mu", "sigma", "ordinal"}
    assert "history" not in player_ratings(player=ann, history=False)[0]


def test_player_figures(league, played):
    figures = player_figures(player=played[1])  # Ben
    spades = figures[0]
    assert spades["game_type"] == "spades" and spades["hands"] == 6
    assert spades["counts"]["bids"] == 6
    assert spades["rates"]["bid_success"] == 1.0
    assert figures[1]["game_type"] == "smudge"


def test_private_leagues_are_left_out_for_those_who_cannot_see_them(league, played, stranger):
    from django.contrib.auth.models import AnonymousUser

    from games import policy

    league.is_public = False
    league.save()
    assert player_ratings(player=played[0], leagues=policy.visible_leagues(stranger)) == []
    assert player_figures(player=played[0], leagues=policy.visible_leagues(AnonymousUser())) == []
    assert player_figures(player=played[0], leagues=policy.visible_leagues(league.created_by))

"""League standings, player ratings and player figures over the API, and who may see them."""

from __future__ import annotations

import pytest

from games.services import game_start, hand_record, league_create, player_create
from games.standings.services import league_standings_recompute

pytestmark = pytest.mark.django_db

# NS bid 6 and take 7 (+61), EW bid 6 and take 6 (+60): two of these take NS past 100.
NS_HAND = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
EW_HAND = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}
TRUMPS_NS = {"declarer": "N", "bid": 7, "trump": "hearts", "doubled": False, "redoubled": False, "tricks": 7}


def play_spades(league, seats, owner, winner: str = "NS"):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"target": 100})
    for _ in range(2):
        hand_record(game=game, record=NS_HAND if winner == "NS" else EW_HAND, by=owner)
    return game


@pytest.fixture
def played(league, seats, owner):
    """Ann & Cat (NS) win two Spades games, Ben & Dan (EW) one; standings computed."""
    for winner in ("NS", "EW", "NS"):
        play_spades(league, seats, owner, winner)
    league_standings_recompute(league_id=league.pk)
    return league


def names(entry) -> str:
    return entry["player"]["name"] if "player" in entry else " & ".join(p["name"] for p in entry["players"])


def test_standings_list_players_with_ratings_and_partnerships(anonymous, played):
    response = anonymous.get(f"/api/v1/leagues/{played.pk}/standings/?game_type=spades")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["league"] == {"id": played.pk, "slug": played.slug, "name": played.name}
    assert body["computed_at"] is not None
    [spades] = body["game_types"]
    assert spades["game_type"] == "spades" and spades["name"] == "Spades"
    assert [names(row) for row in spades["players"]] == ["Ann", "Cat", "Ben", "Dan"]
    ann = spades["players"][0]
    assert (ann["played"], ann["won"], ann["lost"], ann["win_rate"], ann["streak"]) == (3, 2, 1, 0.6667, "W1")
    assert ann["points_for"] == 122 + 120 + 122 and ann["points_against"] == 120 + 122 + 120
    assert ann["matches"] is None
    assert set(ann["rating"]) == {"mu", "sigma", "ordinal", "rank", "rated"}
    assert ann["rating"]["rank"] == 1 and ann["rating"]["rated"] == 3
    assert spades["players"][2]["rating"]["rank"] == 3
    assert [names(row) for row in spades["partnerships"]] == ["Ann & Cat", "Ben & Dan"]
    assert spades["partnerships"][0]["won"] == 2


def test_without_game_type_every_game_type_with_results_is_listed(anonymous, played, seats, owner):
    game = game_start(game_type="trumps", seats=seats, by=owner, league=played, options={"target": 5})
    hand_record(game=game, record=TRUMPS_NS, by=owner)
    league_standings_recompute(league_id=played.pk)
    body = anonymous.get(f"/api/v1/leagues/{played.pk}/standings/").json()
    assert [table["game_type"] for table in body["game_types"]] == ["spades", "trumps"]
    trumps = body["game_types"][1]
    assert trumps["players"][0]["matches"] == {"played": 0, "won": 0, "points": 0}


def test_a_game_type_without_results_is_listed_empty(anonymous, played):
    body = anonymous.get(f"/api/v1/leagues/{played.pk}/standings/?game_type=smudge").json()
    assert body["game_types"] == [{"game_type": "smudge", "name": "Smudge", "players": [], "partnerships": []}]


def test_standings_not_yet_computed_have_no_computed_at(anonymous, league):
    body = anonymous.get(f"/api/v1/leagues/{league.pk}/standings/").json()
    assert body["computed_at"] is None and body["game_types"] == []


def test_unknown_game_type_is_a_400_naming_the_valid_ones(anonymous, played):
    response = anonymous.get(f"/api/v1/leagues/{played.pk}/standings/?game_type=poker")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["game_type"] == ["unknown game type poker; choose one of spades, smudge, trumps, thieving_stink"]


@pytest.mark.parametrize("actor", ["stranger", "anonymous"])
def test_private_league_standings_are_a_404_to_outsiders(request, client_for, played, private_league, actor):
    user = None if actor == "anonymous" else request.getfixturevalue(actor)
    response = client_for(user).get(f"/api/v1/leagues/{played.pk}/standings/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_private_league_standings_are_shown_to_members(client_for, member, played, private_league):
    response = client_for(member).get(f"/api/v1/leagues/{played.pk}/standings/?game_type=spades")
    assert response.status_code == 200 and len(response.json()["game_types"][0]["players"]) == 4


# --- the player resource ------------------------------------------------------------------------------


def test_player_has_ratings_and_figures_per_league_and_game_type(anonymous, played, players):
    body = anonymous.get(f"/api/v1/players/{players[0].pk}/").json()
    assert body["id"] == players[0].pk and body["name"] == "Ann"
    [rating] = body["ratings"]
    assert rating["league"]["id"] == played.pk and rating["game_type"] == "spades"
    assert rating["rank"] == 1 and rating["rated"] == 3
    assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.01)
    assert "history" not in rating
    [figures] = body["figures"]
    assert figures["game_type"] == "spades" and figures["hands"] == 6
    assert figures["counts"]["bids"] == 6 and figures["counts"]["bids_made"] == 6  # both sides make every bid
    assert figures["counts"]["bags"] == 4  # one overtrick in each of the four hands of the games NS won
    assert figures["rates"]["bid_success"] == 1.0 and figures["rates"]["nil_success"] is None


def test_rating_history_lists_every_rated_result(anonymous, played, players):
    response = anonymous.get(f"/api/v1/players/{players[0].pk}/ratings/")
    assert response.status_code == 200
    [rating] = response.json()
    assert [point["sequence"] for point in rating["history"]] == [1, 2, 3]
    assert rating["history"][-1]["ordinal"] == rating["ordinal"]
    assert all(point["game"] and point["match"] is None for point in rating["history"])


def test_unknown_player_ratings_are_a_404(anonymous):
    assert anonymous.get("/api/v1/players/999999/ratings/").status_code == 404


@pytest.mark.parametrize("path", ["/api/v1/players/{id}/", "/api/v1/players/{id}/ratings/"])
def test_private_leagues_ratings_and_figures_show_only_to_members(client_for, played, private_league, players,
                                                                   owner, member, stranger, path):
    # The four play in the private league and in a public one too: a player in each (one league per player).
    public = league_create(name="Open Night", by=owner)
    in_public = [player_create(name=player.name, by=owner, league=public) for player in players]
    play_spades(public, {seat: player.pk for seat, player in zip("NESW", in_public, strict=True)}, owner)
    league_standings_recompute(league_id=public.pk)

    def leagues_seen(user, player) -> set[str] | int:
        response = client_for(user).get(path.format(id=player.pk))
        if response.status_code != 200:
            return response.status_code
        body = response.json()
        ratings = body if isinstance(body, list) else body["ratings"]
        seen = {rating["league"]["slug"] for rating in ratings}
        if isinstance(body, dict):
            assert {row["league"]["slug"] for row in body["figures"]} == seen
        return seen

    for outsider in (None, stranger):
        assert leagues_seen(outsider, in_public[0]) == {"open-night"}
        assert leagues_seen(outsider, players[0]) == 404
    assert leagues_seen(member, in_public[0]) == {"open-night"}
    assert leagues_seen(member, players[0]) == {played.slug}

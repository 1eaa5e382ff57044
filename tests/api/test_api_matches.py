"""Trumps matches: start one, play its games through the hands endpoint, read the totals."""

from __future__ import annotations

# Declarer N bids 13 no trump and takes all 13: 150 to NS, past the target of 50.
GRAND_SLAM = {"declarer": "N", "bid": 13, "trump": "notrump", "doubled": False, "redoubled": False, "tricks": 13}


def test_match_start_and_play_through(as_owner, anonymous, league, seats):
    response = as_owner.post("/api/v1/matches/", {"game_type": "trumps", "league": league.pk, "seats": seats,
                                                  "first_dealer": "N"}, format="json")
    assert response.status_code == 201
    match = response.json()
    assert match["status"] == "in_progress"
    assert [game["match_game_number"] for game in match["games"]] == [1]
    for number in (1, 2, 3):
        game = anonymous.get(f"/api/v1/matches/{match['id']}/").json()["games"][number - 1]
        hand = as_owner.post(f"/api/v1/games/{game['id']}/hands/", GRAND_SLAM, format="json")
        assert hand.status_code == 201, hand.content
    match = anonymous.get(f"/api/v1/matches/{match['id']}/").json()
    assert match["status"] == "finished"
    assert len(match["games"]) == 3
    # N declares every game and so scores 150 three times; everyone partners N once.
    totals = {row["id"]: row["total"] for row in match["player_totals"]}
    assert totals[seats["N"]] == 450
    assert match["winners"] == [seats["N"]]
    assert anonymous.get("/api/v1/matches/").json()["count"] == 1


def test_match_is_trumps_only(as_owner, league, seats):
    response = as_owner.post("/api/v1/matches/", {"game_type": "spades", "league": league.pk, "seats": seats},
                             format="json")
    assert response.status_code == 400
    assert "game_type" in response.json()


def test_missing_match_is_404(anonymous, db):
    assert anonymous.get("/api/v1/matches/5/").status_code == 404

"""A Trumps match is provisional while any of its games is (docs/api.md, "Provisional results"): its page and the
API say so, and the standings count it only once every game of it counts."""

from __future__ import annotations

import pytest

from games.models import Match, Player, Standing
from games.services import Confirmer, hand_confirm, hand_record, league_update, match_start
from games.standings.services import league_standings_update

pytestmark = pytest.mark.django_db

# North declares and makes 13 no trump: 150 to NS, which wins any game to 50 in one hand.
NS_SWEEP = {"declarer": "N", "bid": 13, "trump": "notrump", "doubled": False, "redoubled": False, "tricks": 13}


@pytest.fixture
def match(league, owner, seats):
    """A Trumps match in a league where the other side confirms each hand; Ann (N all match long) keeps score,
    and each game is won in its one hand, which waits for EW."""
    league_update(league=league, by=owner, confirmation="opponents")
    Player.objects.filter(pk=seats["N"]).update(user=owner)
    match = match_start(game_type="trumps", seats=seats, league=league, by=owner)
    for number in (1, 2, 3):
        hand_record(game=match.games.get(match_game_number=number), record=NS_SWEEP, by=owner)
    return Match.objects.get(pk=match.pk)


def confirm_game(match: Match, number: int, owner) -> None:
    """East confirms the game's hand on the scorekeeper's phone."""
    hand_confirm(game=match.games.get(match_game_number=number).pk, number=1,
                 confirmer=Confirmer(user=owner, handed_seat="E"))


def ann_matches(league) -> int:
    league_standings_update(league_id=league.pk)
    return Standing.objects.filter(league=league, game_type="trumps", partner__isnull=True,
                                   player__name="Ann").values_list("matches_played", flat=True).first() or 0


def test_a_finished_match_with_a_provisional_game_is_provisional_and_not_counted(match, league, owner, as_owner,
                                                                                 client):
    assert match.status == Match.Status.FINISHED and match.provisional
    body = as_owner.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["status"] == "finished" and body["provisional"] is True
    assert [game["provisional"] for game in body["games"]] == [True, True, True]
    listed = as_owner.get("/api/v1/matches/").json()["results"]
    assert [(item["id"], item["provisional"]) for item in listed] == [(match.pk, True)]
    client.force_login(owner)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "the match (provisional)" in page and "games 1, 2 and 3 have hands not yet confirmed" in page
    assert ann_matches(league) == 0


def test_the_match_counts_once_its_last_provisional_game_does(match, league, owner, as_owner, client):
    confirm_game(match, 1, owner)
    confirm_game(match, 3, owner)

    assert match.provisional
    assert as_owner.get(f"/api/v1/matches/{match.pk}/").json()["provisional"] is True
    client.force_login(owner)
    assert "game 2 has hands not yet confirmed" in client.get(f"/matches/{match.pk}/").content.decode()
    assert ann_matches(league) == 0

    confirm_game(match, 2, owner)

    assert not match.provisional
    assert as_owner.get(f"/api/v1/matches/{match.pk}/").json()["provisional"] is False
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "provisional" not in page and "the match!" in page
    assert ann_matches(league) == 1


def test_a_match_without_confirmation_is_never_provisional(league, owner, seats, as_owner):
    match = match_start(game_type="trumps", seats=seats, league=league, by=owner)
    for number in (1, 2, 3):
        hand_record(game=match.games.get(match_game_number=number), record=NS_SWEEP, by=owner)

    assert as_owner.get(f"/api/v1/matches/{match.pk}/").json()["provisional"] is False
    assert ann_matches(league) == 1

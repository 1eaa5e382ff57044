"""A user becomes one of a league's players by the organiser's link or an approved claim, and only one."""

from __future__ import annotations

import pytest

from games.errors import InvalidInput, NotAllowed
from games.models import PlayerClaim
from games.services import player_claim, player_claim_decide, player_create, player_link


@pytest.fixture
def ann(league, owner):
    return player_create(name="Ann", by=owner, league=league)


def test_a_member_claims_and_an_owner_approves(league, owner, member, ann):
    claim = player_claim(league=league, player=ann, by=member)
    assert claim.status == "pending" and player_claim(league=league, player=ann, by=member).pk == claim.pk
    ann.refresh_from_db()
    assert ann.user is None  # not before an owner says so
    player_claim_decide(claim=claim, approve=True, by=owner)
    ann.refresh_from_db()
    assert ann.user == member


def test_a_declined_claim_links_nobody_and_cannot_be_decided_again(league, owner, member, ann):
    claim = player_claim(league=league, player=ann, by=member)
    player_claim_decide(claim=claim, approve=False, by=owner)
    ann.refresh_from_db()
    assert ann.user is None
    with pytest.raises(InvalidInput, match="already declined"):
        player_claim_decide(claim=claim, approve=True, by=owner)


def test_claiming_a_player_someone_else_claimed_is_refused(league, owner, member, scorekeeper, ann):
    player_link(league=league, player=ann, user=member, by=owner)
    with pytest.raises(InvalidInput, match="already claimed by someone else"):
        player_claim(league=league, player=ann, by=scorekeeper)
    assert not PlayerClaim.objects.exists()


def test_approving_one_claim_declines_the_others(league, owner, member, scorekeeper, ann):
    first = player_claim(league=league, player=ann, by=member)
    second = player_claim(league=league, player=ann, by=scorekeeper)
    player_claim_decide(claim=first, approve=True, by=owner)
    second.refresh_from_db()
    assert second.status == "declined"
    with pytest.raises(InvalidInput, match="already declined"):
        player_claim_decide(claim=second, approve=True, by=owner)


def test_a_user_is_one_player_in_a_league(league, owner, member, ann):
    ben = player_create(name="Ben", by=owner, league=league)
    player_link(league=league, player=ann, user=member, by=owner)
    with pytest.raises(InvalidInput, match="you are already Ann"):
        player_claim(league=league, player=ben, by=member)
    with pytest.raises(InvalidInput, match="already Ann"):
        player_link(league=league, player=ben, user=member, by=owner)


def test_only_members_claim_and_only_owners_decide_and_link(league, owner, member, scorekeeper, stranger, ann):
    with pytest.raises(NotAllowed):
        player_claim(league=league, player=ann, by=stranger)
    claim = player_claim(league=league, player=ann, by=member)
    with pytest.raises(NotAllowed):
        player_claim_decide(claim=claim, approve=True, by=scorekeeper)
    with pytest.raises(NotAllowed):
        player_link(league=league, player=ann, user=scorekeeper, by=scorekeeper)


def test_an_owner_links_only_members_and_only_the_leagues_players(league, owner, member, stranger, ann):
    with pytest.raises(InvalidInput, match="has not joined"):
        player_link(league=league, player=ann, user=stranger, by=owner)
    elsewhere = player_create(name="Zed", by=owner)
    with pytest.raises(InvalidInput, match="not one of Thursday Club's players"):
        player_link(league=league, player=elsewhere, user=member, by=owner)
    player_link(league=league, player=ann, user=member, by=owner)
    assert player_link(league=league, player=ann, user=None, by=owner).user is None

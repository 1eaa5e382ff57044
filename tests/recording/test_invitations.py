"""Invitations are the only way into a league: made by its owners, accepted by the person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import InvalidInput, InvitationClosed, NotAllowed
from games.models import Invitation, Membership
from games.services import (
    invitation_accept,
    invitation_create,
    invitation_decline,
    invitation_revoke,
    league_create,
    league_member_change,
    league_set_member,
    player_create,
)


def role_of(league, user):
    return Membership.objects.filter(league=league, user=user).values_list("role", flat=True).first()


def test_a_link_lets_people_join_until_its_uses_run_out(league, owner, make_user):
    link = invitation_create(league=league, role="scorekeeper", max_uses=2, by=owner)
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    assert invitation_accept(token=link.token, by=ann).role == "scorekeeper"
    invitation_accept(token=link.token, by=ben)
    with pytest.raises(InvitationClosed, match="used as many times as it allows"):
        invitation_accept(token=link.token, by=cat)
    link.refresh_from_db()
    assert (link.uses, link.status) == (2, "used_up")
    assert role_of(league, cat) is None


def test_an_expired_invitation_is_refused_and_changes_nothing(league, owner, stranger):
    link = invitation_create(league=league, role="member", by=owner, days=1)
    Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(InvitationClosed, match="has expired"):
        invitation_accept(token=link.token, by=stranger)
    assert role_of(league, stranger) is None
    assert Invitation.objects.get(pk=link.pk).uses == 0


def test_accepting_twice_is_refused(league, owner, stranger):
    link = invitation_create(league=league, role="member", max_uses=5, by=owner)
    invitation_accept(token=link.token, by=stranger)
    with pytest.raises(InvalidInput, match="already accepted"):
        invitation_accept(token=link.token, by=stranger)
    assert Invitation.objects.get(pk=link.pk).uses == 1


def test_an_invitation_never_lowers_anyone(league, owner, scorekeeper):
    link = invitation_create(league=league, role="member", by=owner)
    with pytest.raises(InvalidInput, match="already a scorekeeper"):
        invitation_accept(token=link.token, by=scorekeeper)
    assert role_of(league, scorekeeper) == "scorekeeper"


def test_a_member_accepting_a_scorekeeper_link_is_raised(league, owner, member):
    link = invitation_create(league=league, role="scorekeeper", by=owner)
    invitation_accept(token=link.token, by=member)
    assert role_of(league, member) == "scorekeeper"


def test_a_withdrawn_invitation_cannot_be_accepted(league, owner, stranger):
    link = invitation_create(league=league, role="member", by=owner)
    invitation_revoke(invitation=link, by=owner)
    with pytest.raises(InvitationClosed, match="withdrawn"):
        invitation_accept(token=link.token, by=stranger)


def test_only_owners_invite_and_withdraw(league, owner, scorekeeper, stranger):
    with pytest.raises(NotAllowed):
        invitation_create(league=league, role="member", by=scorekeeper)
    link = invitation_create(league=league, role="member", by=owner)
    with pytest.raises(NotAllowed):
        invitation_revoke(invitation=link, by=stranger)


def test_a_link_cannot_make_owners_but_an_invitation_to_a_user_can(league, owner, stranger):
    with pytest.raises(InvalidInput, match="a member or a scorekeeper") as refused:
        invitation_create(league=league, role="owner", by=owner)
    assert refused.value.field == "role"
    invitation = invitation_create(league=league, role="owner", by=owner, invitee=stranger)
    assert role_of(league, stranger) is None
    invitation_accept(token=invitation.token, by=stranger)
    assert role_of(league, stranger) == "owner"


def test_an_invitation_to_a_user_is_theirs_alone(league, owner, stranger, make_user):
    invitation = invitation_create(league=league, role="scorekeeper", by=owner, invitee=stranger)
    other = make_user("other")
    with pytest.raises(NotAllowed, match="for someone else"):
        invitation_accept(token=invitation.token, by=other)
    with pytest.raises(NotAllowed):
        invitation_decline(token=invitation.token, by=other)
    invitation_decline(token=invitation.token, by=stranger)
    with pytest.raises(InvitationClosed, match="declined"):
        invitation_accept(token=invitation.token, by=stranger)
    assert role_of(league, stranger) is None


@pytest.mark.parametrize(("days", "uses", "field"), [(0, 1, "days"), (91, 1, "days"), (7, 0, "max_uses"),
                                                     (7, 501, "max_uses")])
def test_bad_expiry_or_use_count_is_refused(league, owner, days, uses, field):
    with pytest.raises(InvalidInput) as refused:
        invitation_create(league=league, role="member", by=owner, days=days, max_uses=uses)
    assert refused.value.field == field
    assert not Invitation.objects.exists()


def test_nobody_is_enrolled_without_accepting(make_user):
    """A stranger's league cannot make someone else a member, let alone an owner, by naming them."""
    schemer, victim = make_user("schemer"), make_user("victim")
    league = league_create(name="Victim1 cheats at cards", by=schemer)
    for role in ("owner", "scorekeeper", "member"):
        with pytest.raises(InvalidInput, match="must accept an invitation"):
            league_set_member(league=league, user=victim, role=role, by=schemer)
    invitation = league_member_change(league=league, user=victim, role="owner", by=schemer)
    assert isinstance(invitation, Invitation) and invitation.invitee == victim
    assert role_of(league, victim) is None
    invitation_decline(token=invitation.token, by=victim)
    assert role_of(league, victim) is None


def test_a_lower_role_or_a_removal_takes_effect_at_once(league, owner, scorekeeper):
    assert league_member_change(league=league, user=scorekeeper, role="member", by=owner).role == "member"
    assert league_member_change(league=league, user=scorekeeper, role=None, by=owner) is None
    assert role_of(league, scorekeeper) is None


def test_a_member_may_leave(league, member):
    league_set_member(league=league, user=member, role=None, by=member)
    assert role_of(league, member) is None


def test_an_invitation_naming_a_player_links_whoever_accepts(league, owner, stranger):
    ann = player_create(name="Ann", by=owner, league=league)
    invitation = invitation_create(league=league, role="member", by=owner, player=ann, max_uses=5)
    assert invitation.max_uses == 1  # one person is Ann
    invitation_accept(token=invitation.token, by=stranger)
    ann.refresh_from_db()
    assert ann.user == stranger


def test_a_player_claimed_by_someone_else_cannot_be_offered(league, owner, member, stranger):
    ann = player_create(name="Ann", by=owner, league=league)
    invitation = invitation_create(league=league, role="scorekeeper", by=owner, player=ann)
    from games.services import player_link

    player_link(league=league, player=ann, user=member, by=owner)
    with pytest.raises(InvalidInput, match="already claimed"):
        invitation_accept(token=invitation.token, by=stranger)
    assert role_of(league, stranger) is None  # refused as a whole
    with pytest.raises(InvalidInput, match="already claimed"):
        invitation_create(league=league, role="member", by=owner, player=ann)


def test_a_retried_form_makes_one_invitation(league, owner):
    first = invitation_create(league=league, role="member", by=owner, idempotency_key="form-1")
    again = invitation_create(league=league, role="member", by=owner, idempotency_key="form-1")
    assert first.pk == again.pk and Invitation.objects.count() == 1


def test_an_unknown_token_is_refused(stranger):
    with pytest.raises(InvalidInput, match="no such invitation"):
        invitation_accept(token="not-a-token", by=stranger)

"""Several people taking the last uses of a link at once: exactly as many join as it allows."""

from __future__ import annotations

import pytest

from games.errors import InvitationClosed
from games.models import Invitation, InvitationAcceptance, Membership
from games.services import invitation_accept, invitation_create

from .test_concurrent_appends import run_together

PEOPLE = 6


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("database", ["any", pytest.param("postgres", marks=pytest.mark.services)])
def test_a_link_is_never_used_more_than_it_allows(league, owner, make_user, database, request):
    if database == "postgres":
        request.getfixturevalue("postgres")
    link = invitation_create(league=league, role="member", max_uses=2, by=owner)
    people = [make_user(f"person{n}") for n in range(PEOPLE)]
    outcomes = run_together(lambda n: invitation_accept(token=link.token, by=people[n]), PEOPLE)
    joined = [outcome for outcome in outcomes if isinstance(outcome, Membership)]
    assert len(joined) == 2, outcomes
    assert all(isinstance(o, InvitationClosed) for o in outcomes if not isinstance(o, Membership)), outcomes
    assert Invitation.objects.get(pk=link.pk).uses == 2
    assert InvitationAcceptance.objects.count() == 2
    assert Membership.objects.filter(league=league, role="member").count() == 2

"""Accounts: signing up (openly, or with an invitation), the first account of a new site, profiles."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.errors import InvalidInput, NotAllowed
from games.models import Invitation, display_name
from games.services import account_signup, invitation_create, profile_update

pytestmark = pytest.mark.django_db

GOOD = {"username": "ann", "password": "shuffle-up-and-deal", "display_name": "  Ann   Lee "}


def test_open_sign_up_makes_an_account_with_a_display_name(settings):
    settings.SIGNUP = "open"
    user = account_signup(**GOOD)
    assert (user.username, display_name(user), user.is_staff) == ("ann", "Ann Lee", False)
    assert user.check_password("shuffle-up-and-deal")


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"username": "Owner"}, "username", "taken"),
    ({"username": "ann lee"}, "username", "letters, digits"),
    ({"display_name": " "}, "display_name", "display name is needed"),
    ({"password": "12345678"}, "password", "entirely numeric"),
    ({"password": "ann"}, "password", "too short"),
    ({"email": "not-an-address"}, "email", "not an email address"),
])
def test_bad_sign_up_is_refused_beside_its_field(settings, owner, change, field, message):
    settings.SIGNUP = "open"
    with pytest.raises(InvalidInput, match=message) as refused:
        account_signup(**{**GOOD, **change})
    assert refused.value.field == field
    assert get_user_model().objects.count() == 1


def test_invite_only_sign_up_needs_an_open_invitation(settings, league, owner):
    settings.SIGNUP = "invite"
    with pytest.raises(NotAllowed, match="by invitation"):
        account_signup(**GOOD)
    link = invitation_create(league=league, role="scorekeeper", by=owner)
    Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(NotAllowed, match="expired"):
        account_signup(**GOOD, invitation=link.token)
    fresh = invitation_create(league=league, role="scorekeeper", by=owner)
    user = account_signup(**GOOD, invitation=fresh.token)
    assert not user.memberships.exists()  # accepting is the next step, as for anyone


def test_a_single_use_invitation_makes_one_account(settings, league, owner):
    settings.SIGNUP = "invite"
    link = invitation_create(league=league, role="member", by=owner)
    account_signup(**GOOD, invitation=link.token)
    for n in range(3):
        with pytest.raises(NotAllowed, match="made as many accounts as it can be accepted"):
            account_signup(**{**GOOD, "username": f"ann{n}"}, invitation=link.token)
    assert get_user_model().objects.count() == 2  # the owner and one new account


def test_a_link_for_three_makes_three_accounts(settings, league, owner):
    settings.SIGNUP = "invite"
    link = invitation_create(league=league, role="member", by=owner, max_uses=3)
    for n in range(3):
        account_signup(**{**GOOD, "username": f"ann{n}"}, invitation=link.token)
    with pytest.raises(NotAllowed, match="made as many accounts"):
        account_signup(**{**GOOD, "username": "ann3"}, invitation=link.token)


def test_an_invitation_addressed_to_someone_makes_no_account(settings, league, owner, make_user):
    settings.SIGNUP = "invite"
    for name in ("member", "nobody"):  # an account's name, and a name with no account
        make_user("member") if name == "member" else None
        addressed = invitation_create(league=league, role="owner", by=owner, invitee_name=name)
        with pytest.raises(NotAllowed, match="for someone who has an account"):
            account_signup(**{**GOOD, "username": f"new{name}"}, invitation=addressed.token)


def test_the_first_account_of_an_invite_only_site_is_its_administrator(settings):
    settings.SIGNUP = "invite"
    first = account_signup(**GOOD)
    assert first.is_staff and first.is_superuser
    with pytest.raises(NotAllowed):
        account_signup(**{**GOOD, "username": "ben"})


def test_a_user_changes_their_own_profile_only(owner, stranger):
    profile_update(user=owner, by=owner, display_name="Olive", email="olive@example.org")
    owner.refresh_from_db()
    assert (owner.first_name, owner.email) == ("Olive", "olive@example.org")
    with pytest.raises(NotAllowed):
        profile_update(user=owner, by=stranger, display_name="Mallory")

"""Accounts: signing up (openly, or only with an invitation) and a user's own profile.

A user's display name is what everyone else sees of them (the login name is theirs and their
leagues' only); it is kept in the user's ``first_name``, Django's one free-text name field.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F

from games.errors import InvalidInput, NotAllowed
from games.models import Invitation

from .invitations import invitation_by_token

MAX_DISPLAY_NAME = 150
MAX_USERNAME = 150


def checked_display_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("a display name is needed: it is what other people see of you", field="display_name")
    if len(name) > MAX_DISPLAY_NAME:
        raise InvalidInput(f"a display name can be at most {MAX_DISPLAY_NAME} characters", field="display_name")
    return name


def checked_email(email: str) -> str:
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidInput("that is not an email address", field="email") from None
    return email


def checked_username(username: str) -> str:
    username = (username or "").strip()
    if not username:
        raise InvalidInput("choose a username to sign in with", field="username")
    if len(username) > MAX_USERNAME:
        raise InvalidInput(f"a username can be at most {MAX_USERNAME} characters", field="username")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise InvalidInput("a username may have letters, digits and @ . + - _ only", field="username") from None
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise InvalidInput("that username is taken; choose another", field="username")
    return username


def first_account() -> bool:
    """No account exists yet: the site was just deployed."""
    return not get_user_model().objects.exists()


def signup_open() -> bool:
    """Whether anyone may sign up now: with ``SIGNUP=open``, or for the very first account of a new site."""
    return settings.SIGNUP == "open" or first_account()


def signup_invitation(token: str | None, *, lock: bool = False) -> Invitation | None:
    """The invitation a sign-up comes with; required when sign-up is by invitation only, and then open, a
    link (not addressed to someone, who has an account already) with an account left to make."""
    if signup_open():
        return None
    if not token:
        raise NotAllowed("sign-up is by invitation: open the invitation link your league's organiser sent you")
    invitation = invitation_by_token(token)
    if lock:
        # Two sign-ups with the last account of an invitation wait for each other; the second is refused.
        invitation = Invitation.objects.select_for_update(of=("self",)).select_related("league").get(
            pk=invitation.pk)
    if invitation.status != Invitation.Status.OPEN:
        raise NotAllowed(f"this invitation is {invitation.status_label.lower()}; "
                         "ask the organiser for a new one")
    if invitation.is_addressed:
        raise NotAllowed("this invitation is for someone who has an account: sign in to accept it")
    if not invitation.can_make_account:
        raise NotAllowed("this invitation has made as many accounts as it can be accepted; "
                         "ask the organiser for a new one")
    return invitation


@transaction.atomic
def account_signup(*, username: str, password: str, display_name: str, email: str = "",
                   invitation: str | None = None):
    """Create an account. With ``SIGNUP=invite`` only someone holding an open invitation link may, and an
    invitation makes at most as many accounts as it may be accepted (one for a single-use invitation),
    except for the first account of a new site: its administrator (staff, superuser), who then creates the
    first league.

    The invitation is not accepted here: the new user accepts it next, as anyone else does.
    """
    administrator = settings.SIGNUP == "invite" and first_account()
    held = signup_invitation(invitation, lock=True)
    User = get_user_model()
    user = User(username=checked_username(username), first_name=checked_display_name(display_name),
                email=checked_email(email), is_staff=administrator, is_superuser=administrator)
    try:
        password_validation.validate_password(password or "", user)
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages), field="password") from None
    user.set_password(password)
    user.save()
    if held is not None:
        Invitation.objects.filter(pk=held.pk).update(accounts_made=F("accounts_made") + 1)
    return user


@transaction.atomic
def profile_update(*, user, by, display_name: str | None = None, email: str | None = None):
    """A user changes their own display name or email address."""
    if not by.is_authenticated or by.pk != user.pk:
        raise NotAllowed("you can change only your own profile")
    fields = []
    if display_name is not None:
        user.first_name = checked_display_name(display_name)
        fields.append("first_name")
    if email is not None:
        user.email = checked_email(email)
        fields.append("email")
    if fields:
        user.save(update_fields=fields)
    return user

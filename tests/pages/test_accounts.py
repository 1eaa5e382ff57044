"""Account pages: sign-up (open, or by invitation), profile, password change and reset (only where mail goes)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from games.services import invitation_create

pytestmark = pytest.mark.django_db

SIGNUP = {"display_name": "Ann Lee", "username": "ann", "password1": "shuffle-up-and-deal",
          "password2": "shuffle-up-and-deal", "email": ""}


def test_signing_up_signs_you_in(client, settings):
    settings.SIGNUP = "open"
    assert "Sign up" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("signup"), SIGNUP, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert response.context["user"].username == "ann"
    assert "Welcome, Ann Lee!" in response.content.decode()


def test_signing_up_returns_to_the_page_you_came_from(client, settings):
    settings.SIGNUP = "open"
    response = client.post(reverse("signup") + "?next=/games/new/", SIGNUP)
    assert response["Location"] == "/games/new/"
    client.logout()
    elsewhere = client.post(reverse("signup"), {**SIGNUP, "username": "ben", "next": "https://evil.example/"})
    assert elsewhere["Location"] == reverse("home")


def test_a_mistyped_second_password_is_shown_beside_it(client, settings):
    settings.SIGNUP = "open"
    response = client.post(reverse("signup"), {**SIGNUP, "password2": "something-else"})
    assert response.status_code == 400
    assert "type the same password twice" in response.context["form"].errors["password2"][0]
    assert not get_user_model().objects.exists()


def test_a_taken_username_is_shown_beside_it(client, settings, owner):
    settings.SIGNUP = "open"
    response = client.post(reverse("signup"), {**SIGNUP, "username": "OWNER"})
    assert response.status_code == 400
    assert response.context["form"].errors["username"] == ["that username is taken; choose another"]


def test_invite_only_sign_up_goes_through_an_invitation(client, settings, league, owner):
    settings.SIGNUP = "invite"
    closed = client.get(reverse("signup"))
    assert closed.status_code == 403 and "Sign-up is by invitation" in closed.content.decode()
    assert ">Sign up<" not in client.get(reverse("home")).content.decode()
    link = invitation_create(league=league, role="scorekeeper", by=owner)
    page = client.get(reverse("signup") + f"?invitation={link.token}")
    assert page.status_code == 200 and "Thursday Club" in page.content.decode()
    response = client.post(reverse("signup"), {**SIGNUP, "invitation": link.token})
    assert response["Location"] == reverse("invitation", args=[link.token])
    accepted = client.post(reverse("invitation", args=[link.token]), {"action": "accept"})
    assert accepted["Location"] == reverse("league", args=[league.slug])


def test_the_profile_sets_the_display_name(signed_in, owner):
    client = signed_in(owner)
    response = client.post(reverse("profile"), {"display_name": "Olive", "email": "olive@example.org"})
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.first_name == "Olive"
    bad = client.post(reverse("profile"), {"display_name": "  ", "email": ""})
    assert bad.status_code == 400 and bad.context["form"].errors["display_name"]


def test_password_change_works(signed_in, owner, client):
    response = signed_in(owner).post(reverse("password_change"), {
        "old_password": "a-long-table-password", "new_password1": "a-new-long-secret", "new_password2":
        "a-new-long-secret"})
    assert response["Location"] == reverse("password_change_done")
    client.logout()
    assert client.login(username="owner", password="a-new-long-secret")


def test_password_reset_mails_a_link_where_mail_is_configured(client, owner, settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    owner.email = "owner@example.org"
    owner.save()
    assert "Forgot your password?" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "owner@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body
    assert mail.outbox[0].subject == "Your Scorekeeper password"


def test_password_reset_is_not_offered_without_mail(client, owner, settings):
    settings.PASSWORD_RESET_BY_EMAIL = False
    assert "Forgot your password?" not in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "owner@example.org"})
    assert response.status_code == 404
    assert "cannot send you a reset link" in response.content.decode()
    assert mail.outbox == []


def test_the_admin_link_is_for_staff_only(signed_in, owner, client):
    assert ">Admin<" not in client.get(reverse("home")).content.decode()
    assert ">Admin<" not in signed_in(owner).get(reverse("home")).content.decode()
    owner.is_staff = True
    owner.save()
    assert ">Admin<" in signed_in(owner).get(reverse("home")).content.decode()

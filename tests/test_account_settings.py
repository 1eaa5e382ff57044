"""Sign-up and mail settings: invitation-only sign-up and no reset without mail in production, SMTP from the
environment."""

from __future__ import annotations

from tests.test_settings import PRODUCTION, manage

SHOW = ("shell", "-v", "0", "-c", "from django.conf import settings as s; "
        "print(s.SIGNUP, s.EMAIL_BACKEND.rsplit('.', 2)[-2], s.PASSWORD_RESET_BY_EMAIL, s.EMAIL_USE_TLS)")


def test_production_signs_up_by_invitation_and_offers_no_reset_without_mail():
    done = manage(*SHOW, **PRODUCTION)
    assert done.stdout.split() == ["invite", "console", "False", "True"], done.stderr


def test_production_with_smtp_offers_reset():
    done = manage(*SHOW, **PRODUCTION, EMAIL_HOST="smtp.example.org", EMAIL_PORT="465", SIGNUP="open")
    assert done.stdout.split() == ["open", "smtp", "True", "False"], done.stderr


def test_development_signs_up_openly_and_prints_mail():
    assert manage(*SHOW).stdout.split() == ["open", "console", "True", "True"]


def test_a_bad_signup_value_stops_start_up():
    done = manage("check", SIGNUP="sometimes")
    assert done.returncode != 0 and "SIGNUP='sometimes' is not one of open, invite" in done.stderr

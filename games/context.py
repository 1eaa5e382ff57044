"""What every page's template may ask about accounts: whether sign-up and password reset are offered."""

from __future__ import annotations

from django.conf import settings

from games.services.accounts import signup_open


def accounts(request) -> dict:
    # A callable: the template asks (one small query in invite mode) only where it shows a sign-up link.
    return {"signup_open": signup_open, "password_reset_offered": settings.PASSWORD_RESET_BY_EMAIL}

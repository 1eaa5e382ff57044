"""What every page's template may ask about accounts: whether sign-up and password reset are offered."""

from __future__ import annotations

from django.conf import settings


def accounts(request) -> dict:
    return {"signup_open": settings.SIGNUP == "open", "password_reset_offered": settings.PASSWORD_RESET_BY_EMAIL}

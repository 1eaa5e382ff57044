"""What every page's template may ask: whether sign-up and password reset are offered, where the service
worker is."""

from __future__ import annotations

from django.conf import settings

from games.services.accounts import signup_open
from games.views.app import service_worker_url


def app(request) -> dict:
    """Where the pages register the service worker (the address changes with the site's files)."""
    return {"service_worker_url": service_worker_url()}


def accounts(request) -> dict:
    # A callable: the template asks (one small query in invite mode) only where it shows a sign-up link.
    return {"signup_open": signup_open, "password_reset_offered": settings.PASSWORD_RESET_BY_EMAIL}

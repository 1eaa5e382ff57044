"""Limits on failed sign-ins (django-axes, when ``LOGIN_RATE_LIMIT`` is on).

Two limits, both counted in the database so every app server sees the same counts:

- ``LOGIN_FAILURE_LIMIT`` failures for one username from one address lock that pair out (axes' own
  rule), so guessing one account's password is slow;
- ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures from one address, whatever the usernames, lock the
  address out, so trying one password against many accounts is slow too. It is higher, since
  a club's members may share one address.

Either lock lasts ``LOGIN_COOLOFF_MINUTES`` after the last failure. A locked-out sign-in is a 429
with ``Retry-After``: a page for the site's forms (here), JSON for the API's token endpoint.
"""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse

from .errors import is_api, page


def client_address(request: HttpRequest) -> str | None:
    """The client's address: behind PROXY_COUNT proxies, the one the outermost of ours saw (the
    PROXY_COUNT-th from the right in X-Forwarded-For; what a client writes further left is ignored)."""
    proxies = settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        addresses = [address.strip() for address in forwarded.split(",")]
        return addresses[-min(proxies, len(addresses))]
    return request.META.get("REMOTE_ADDR")


def cooloff_seconds() -> int:
    return max(1, round(settings.AXES_COOLOFF_TIME * 3600))


def address_failures(request: HttpRequest) -> int:
    """Failed sign-ins from the request's address within the cool-off time, over every username."""
    recent = AccessAttempt.objects.filter(ip_address=request.axes_ip_address,
                                          attempt_time__gte=get_cool_off_threshold(request))
    return recent.aggregate(total=Sum("failures_since_start"))["total"] or 0


class SignInLimits(AxesDatabaseHandler):
    """axes' database handler, which also locks out an address with too many failures across usernames."""

    def is_locked(self, request, credentials=None) -> bool:
        if super().is_locked(request, credentials):
            return True
        return address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the page for a locked-out sign-in (the API answers for itself)."""
    if is_api(request) and original_response is not None:
        return original_response
    minutes = settings.LOGIN_COOLOFF_MINUTES
    return page(429, f"Too many failed sign-ins from here. Wait {minutes} minutes, then try again.",
                {"Retry-After": str(cooloff_seconds())})

"""Fixed-window request limits counted in the cache, for the API's throttles and the site's forms alike.

A limit counts requests in fixed windows (``60/minute``: at most 60 in each clock minute) with one
atomic counter per window in the cache, so app servers sharing Redis share their counts. If the cache
cannot be reached the request is let through: a limit must not take the site down with Redis.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"60/minute"`` -> (60, 60); None -> None (no limit)."""
    if rate is None:
        return None
    count, period = rate.split("/", 1)
    return int(count), PERIODS[period[0]]


def over_limit(scope: str, ident: str, rate: str | None) -> float | None:
    """Count one request of ``ident`` against ``scope``'s ``rate``: the seconds until the window ends if it is
    over the limit, None if it may go on."""
    parsed = parse_rate(rate)
    if parsed is None:
        return None
    limit, period = parsed
    now = time.time()
    window = int(now // period)
    key = f"throttle:{scope}:{ident}:{window}"
    try:
        cache.add(key, 0, timeout=period + 1)
        count = cache.incr(key)
    except ValueError:  # the window's counter expired between the two calls: a new window has begun
        return None
    except Exception:  # noqa: BLE001 - the cache is down; let the request through rather than fail it
        logger.warning("request limits are off: the cache cannot be reached", exc_info=True)
        return None
    return (window + 1) * period - now if count > limit else None


def address_over_limit(request: HttpRequest, scope: str) -> float | None:
    """:func:`over_limit` for a site form, per client address, at the API's rate for ``scope`` (so a form
    and its API endpoint share one count)."""
    from .signin import client_address

    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(scope)
    return over_limit(scope, client_address(request) or "unknown", rate)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least one."""
    return str(max(1, math.ceil(seconds)))

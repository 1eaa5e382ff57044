"""Request ids in logs and a health endpoint.

Every request gets an id (taken from a proxy's ``X-Request-ID`` when it sends a sane one), which
is echoed in the response and stamped on every log line written while the request is served, so
one table's trouble can be followed through the logs of several app servers.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

request_id: ContextVar[str] = ContextVar("request_id", default="-")
SANE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        rid = incoming if SANE_ID.match(incoming) else uuid.uuid4().hex
        # Not reset on the way out: Django logs an error response (django.request) after the
        # middleware chain returns, and that line should carry the id too. The next request sets its own.
        request_id.set(rid)
        request.request_id = rid
        response = self.get_response(request)
        response["X-Request-ID"] = rid
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


@never_cache
def healthz(request):
    """200 when the database (and Redis, when configured) answer; 503 naming what does not."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as error:  # noqa: BLE001 - any failure means unhealthy, and says why
        checks["database"] = f"error: {error.__class__.__name__}"
    if settings.REDIS_URL:
        try:
            import redis

            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
            checks["redis"] = "ok"
        except Exception as error:  # noqa: BLE001
            checks["redis"] = f"error: {error.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", "checks": checks},
                        status=200 if healthy else 503)

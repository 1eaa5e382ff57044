"""What Django answers when no view does: not found, refused, too large, broken, unavailable.

Under ``/api/`` every answer is the API's error shape (Problem Details JSON, ``api.exceptions``);
elsewhere it is a page. A database that cannot be reached (a restart, a failover) is a 503 with
``Retry-After`` rather than a 500: nothing was stored, and the same request can be sent again.
"""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.html import escape
from django.views import defaults

from api.exceptions import OUTAGE_RETRY_AFTER, PROBLEM_JSON
from api.exceptions import problem as problem_body

API_PREFIX = "/api/"
PLAIN_PAGE = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} · Scorekeeper</title>'
              '</head><body><h1>{title}</h1><p>{message}</p><p><a href="/">Back to the start</a></p></body></html>')
logger = logging.getLogger(__name__)

PAGES = {
    400: ("Bad request", "The request could not be understood."),
    405: ("Not allowed here", "This address does not answer that kind of request."),
    413: ("Too large", "What was sent is larger than Scorekeeper accepts."),
    429: ("Too many attempts", "Wait a little, then try again."),
    431: ("Headers too large", "The request's headers are larger than Scorekeeper accepts."),
    500: ("Something went wrong", "Scorekeeper could not answer. The error has been logged; please try again."),
    503: ("Back in a moment", "Scorekeeper cannot reach its database just now. Nothing was lost: try again in a "
                              "few seconds."),
}


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def problem(status: int, detail: str, code: str, headers: dict[str, str] | None = None) -> JsonResponse:
    response = JsonResponse(problem_body(status, detail, code), status=status, content_type=PROBLEM_JSON,
                            json_dumps_params={"separators": (",", ":")})
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def page(status: int, message: str | None = None, headers: dict[str, str] | None = None) -> HttpResponse:
    title, default = PAGES[status]
    context = {"title": title, "message": message or default}
    try:
        body = loader.get_template("error.html").render(context)
    except Exception:  # noqa: BLE001 - an error page must not fail in turn (static files not collected...)
        logger.exception("the error page could not be rendered; answering a plain one")
        body = PLAIN_PAGE.format(**{key: escape(value) for key, value in context.items()})
    response = HttpResponse(body, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def refusal(request: HttpRequest, status: int, detail: str, code: str,
            headers: dict[str, str] | None = None) -> HttpResponse:
    """The same refusal as JSON under /api/ and as a page elsewhere."""
    if is_api(request):
        return problem(status, detail, code, headers)
    return page(status, None, headers)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: also what Django answers for a body or a form over its limits (413 here)."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return refusal(request, 413, "the request body is too large", "payload_too_large")
    return refusal(request, 400, "the request could not be understood", "bad_request")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return problem(403, "you are not allowed to do this", "permission_denied")
    return defaults.permission_denied(request, exception)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return problem(404, "there is nothing at this address; the endpoints are listed at /api/v1/schema/",
                       "not_found")
    return defaults.page_not_found(request, exception)


def database_unavailable(error: BaseException | None) -> bool:
    return isinstance(error, OperationalError | InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500. Called while the exception is being handled, so it can tell an outage from a bug."""
    if database_unavailable(sys.exc_info()[1]):
        return refusal(request, 503, "the database is not answering; try again in a moment", "unavailable",
                       {"Retry-After": str(OUTAGE_RETRY_AFTER)})
    return refusal(request, 500, "the server could not answer; the error has been logged", "server_error")

"""Requests refused before any view reads them: methods no page answers, text no database can store,
headers larger than the app server would pass on.

- ``TRACE`` (and ``TRACK``, ``CONNECT``) anywhere, and a method a page does not answer (``PUT``), is a 405
  listing the methods it does; ``OPTIONS`` on a page is a 204 with that list (the API answers its own).
- A NUL character in the path is a 404 (no stored name can contain one), in the query string a 400:
  PostgreSQL cannot store or compare text holding one, and a lookup with it would fail as a 500.
- A header longer than gunicorn's ``limit_request_field_size`` is a 431, so that a development server
  (which has no such limit) refuses what production would.

Under ``/api/`` the refusals are the API's error shape, elsewhere pages (``scorekeeper.errors``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, ResolverMatch, resolve

from .errors import is_api, not_found, refusal

PAGE_METHODS = ("GET", "HEAD", "OPTIONS", "POST")
NEVER = ("TRACE", "TRACK", "CONNECT")
# gunicorn's limit_request_field_size (gunicorn.conf.py): the longest header line it passes on.
MAX_HEADER_BYTES = 8190


def resolved(path: str) -> ResolverMatch | None:
    try:
        return resolve(path)
    except Resolver404:
        return None


def resolves(path: str) -> bool:
    return resolved(path) is not None


def view_class(match: ResolverMatch | None):
    """The class of the class-based view ``match`` found: None for a function view, or no view."""
    if match is None:
        return None
    return getattr(match.func, "cls", None) or getattr(match.func, "view_class", None)


def allowed_methods(cls) -> tuple[str, ...]:
    """What a view answers: a class-based view's own methods, else the pages' usual ones."""
    if cls is None:
        return PAGE_METHODS
    names = {name.upper() for name in cls.http_method_names if hasattr(cls, name)}
    if "GET" in names:
        names.add("HEAD")  # a view answers HEAD as GET
    return tuple(sorted(names - set(NEVER)))


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.refusal(request) or self.get_response(request)

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        for name, value in request.META.items():
            if name.startswith("HTTP_") and len(value) > MAX_HEADER_BYTES:
                header = name[5:].replace("_", "-").title()
                return refusal(request, 431, f"the {header} header is longer than {MAX_HEADER_BYTES} bytes",
                               "header_too_large")
        path = request.path_info
        if "\x00" in path:
            return not_found(request)
        query = request.META.get("QUERY_STRING", "")
        if "%00" in query or "\x00" in query:
            return refusal(request, 400, "the query string cannot contain NUL characters", "invalid")
        method = request.method or ""
        api = is_api(request)
        if not api and method in ("GET", "HEAD", "POST"):
            return None  # a page answers these itself (its own 404 and 405): nothing to look up here
        found = resolved(path)
        if api and found is None and not resolves(path + "/"):
            return not_found(request)  # JSON, even where DEBUG would show Django's page
        cls = view_class(found)
        if method in NEVER:
            return refusal(request, 405, f"this address does not answer {method}", "method_not_allowed",
                           {"Allow": ", ".join(allowed_methods(cls))})
        if cls is not None and hasattr(cls, "permission_classes"):
            return None  # a REST framework view answers every other method itself, OPTIONS included
        if method == "OPTIONS":
            if found is None:
                return not_found(request)
            response = HttpResponse(status=204)
            response["Allow"] = ", ".join(allowed_methods(cls))
            return response
        if cls is None and method not in PAGE_METHODS:
            return refusal(request, 405, f"this address does not answer {method}", "method_not_allowed",
                           {"Allow": ", ".join(PAGE_METHODS)})
        return None

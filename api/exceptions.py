"""The API's one error shape, and the one place domain errors become HTTP responses.

Every error body is a Problem Details object (RFC 9457), sent as ``application/problem+json``:
``type`` (always ``about:blank``: the status and ``code`` say it all), ``title`` (the status's
name), ``status``, ``detail`` (a sentence for a person) and ``code`` (a stable word for a program).
Validation errors (400) add one key per field at fault, each a list of sentences, e.g.
``{"tricks": ["tricks add up to 12; they must add up to 13"]}``; errors about the request or hand
as a whole, or about a field whose name is one of the keys above, go under ``non_field_errors``.
A refused hand adds ``hand`` (its number); a conflict (409) on a game adds ``state``, the game as
it now stands.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import (
    GameClosed,
    HandChanged,
    HandConflict,
    IdempotencyMismatch,
    InvalidInput,
    InvitationClosed,
    NoSuchThing,
    NotAllowed,
    NotFound,
    ServiceError,
    SimilarName,
    StateConflict,
)
from games.rules import InvalidHand, InvalidOptions, RulesError, UnknownGame

logger = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
NON_FIELD = "non_field_errors"
# Keys of the error body that are not field names.
RESERVED = ("type", "title", "status", "detail", "code", "hand", "state")
# How long a client should wait before retrying while the database is unreachable.
OUTAGE_RETRY_AFTER = 1


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"
    default_code = "payload_too_large"


class ServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "the database is not answering; try again in a moment"
    default_code = "unavailable"

    def __init__(self, detail=None, code=None, wait: int = OUTAGE_RETRY_AFTER):
        super().__init__(detail, code)
        self.wait = wait


def top_field(field: str | None) -> str:
    """``tricks.N`` -> ``tricks``; no field (or one named like a key of the error shape) -> ``non_field_errors``."""
    if not field:
        return NON_FIELD
    top = str(field).split(".", 1)[0]
    return NON_FIELD if top in RESERVED else top


def messages(value: Any, prefix: str = "") -> list[str]:
    """Every message in a DRF error detail (nested dicts and lists), nested keys as prefixes."""
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            label = NON_FIELD if key == NON_FIELD else str(key)
            out += messages(item, prefix if label == NON_FIELD else f"{prefix}{label}: ")
        return out
    if isinstance(value, list | tuple):
        return [message for item in value for message in messages(item, prefix)]
    return [f"{prefix}{value}"]


def problem(status_code: int, detail: str, code: str, fields: dict[str, list[str]] | None = None,
            **extra: Any) -> dict[str, Any]:
    """An error body: the Problem Details members, our ``code``, then field errors and extras."""
    body: dict[str, Any] = {"type": "about:blank", "title": HTTPStatus(status_code).phrase,
                            "status": status_code, "detail": detail, "code": code}
    for key, values in (fields or {}).items():
        body.setdefault(key, []).extend(values)
    body.update({key: value for key, value in extra.items() if value is not None})
    return body


def problem_response(status_code: int, detail: str, code: str, fields: dict[str, list[str]] | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> Response:
    return Response(problem(status_code, detail, code, fields, **extra), status=status_code, headers=headers,
                    content_type=PROBLEM_JSON)


def validation_fields(detail: Any) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    items = detail.items() if isinstance(detail, dict) else [(NON_FIELD, detail)]
    for key, value in items:
        target = top_field(str(key))
        # A field named like a key of the error shape (e.g. the `status` filter) keeps its name in the message.
        prefix = f"{key}: " if target == NON_FIELD and str(key) not in ("", NON_FIELD) else ""
        fields.setdefault(target, []).extend(messages(value, prefix))
    return fields


def validation_problem(detail: Any) -> dict[str, Any]:
    fields = validation_fields(detail)
    first_key, first = next(((key, values[0]) for key, values in fields.items() if values), (NON_FIELD, "invalid"))
    summary = first if first_key == NON_FIELD else f"{first_key}: {first}"
    return problem(400, summary, "invalid", fields)


def rules_field(error: RulesError) -> str:
    # Options arrive in the request as ``options`` (first_dealer also at the top level).
    if isinstance(error, InvalidOptions) and error.field != "first_dealer":
        return "options"
    return top_field(error.field)


def domain_response(exc: Exception) -> Response | None:
    """A response for the services' and the engine's errors, or None for anything else."""
    if isinstance(exc, InvalidHand):
        return problem_response(400, str(exc), "invalid_hand", {rules_field(exc): [exc.message]}, hand=exc.number)
    if isinstance(exc, RulesError):
        code = "unknown_game" if isinstance(exc, UnknownGame) else "invalid_options"
        field = rules_field(exc)
        detail = exc.message if field == NON_FIELD else f"{field}: {exc.message}"
        return problem_response(400, detail, code, {field: [exc.message]})
    if not isinstance(exc, ServiceError):
        return None
    if isinstance(exc, InvalidInput):
        field = top_field(exc.field)
        detail = exc.message if field == NON_FIELD else f"{field}: {exc.message}"
        if isinstance(exc, StateConflict):
            return problem_response(409, detail, "conflict", {field: [exc.message]})
        if isinstance(exc, NoSuchThing):
            return problem_response(404, exc.message, "not_found")
        code = "similar_name" if isinstance(exc, SimilarName) else "invalid"
        return problem_response(400, detail, code, {field: [exc.message]})
    if isinstance(exc, InvitationClosed):
        return problem_response(410, exc.message, "invitation_closed")
    if isinstance(exc, NotAllowed):
        return problem_response(403, exc.message, "not_allowed")
    if isinstance(exc, NotFound):
        return problem_response(404, exc.message, "not_found")
    if isinstance(exc, HandConflict):
        return problem_response(409, exc.message, "hand_conflict", state=exc.state)
    if isinstance(exc, HandChanged):
        return problem_response(412, exc.message, "precondition_failed")
    if isinstance(exc, GameClosed):
        return problem_response(409, exc.message, "game_closed")
    if isinstance(exc, IdempotencyMismatch):
        return problem_response(422, exc.message, "idempotency_mismatch")
    return problem_response(400, exc.message, "error")


def as_api_exception(exc: Exception) -> Exception:
    """Django's and the database's exceptions that a client can cause or must be told about, as DRF's."""
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, RequestDataTooBig):
        return PayloadTooLarge()
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away (a restart, a failover, a dropped connection): nothing was stored,
        # and a retry (with the same Idempotency-Key) can succeed as soon as it is back.
        logger.warning("the database is unavailable: %s", exc, exc_info=True)
        return ServiceUnavailable()
    return exc


def handler(exc: Exception, context: dict) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every error, one shape."""
    domain = domain_response(exc)
    if domain is not None:
        return domain
    exc = as_api_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # an unexpected error: let it be a 500 (scorekeeper.errors) and reach the logs
    if isinstance(exc, exceptions.ValidationError):
        response.data = validation_problem(exc.detail)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = problem(response.status_code, str(exc.detail), code)
    response.content_type = PROBLEM_JSON
    return response

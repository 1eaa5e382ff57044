"""The API's one error shape, and the one place domain errors become HTTP responses.

Every error body is an object with ``detail`` (a sentence for a person) and ``code`` (a stable
word for a program). Validation errors (400) add one key per field at fault, each a list of
sentences, e.g. ``{"tricks": ["tricks add up to 12; they must add up to 13"]}``; errors about
the request or hand as a whole go under ``non_field_errors``. A refused hand adds ``hand`` (its
number); a conflict (409) on a game adds ``state``, the game as it now stands.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import (
    GameClosed,
    HandConflict,
    IdempotencyMismatch,
    InvalidInput,
    InvitationClosed,
    NotAllowed,
    NotFound,
    ServiceError,
    SimilarName,
)
from games.rules import InvalidHand, InvalidOptions, RulesError, UnknownGame

NON_FIELD = "non_field_errors"
# Keys of the error body that are not field names.
RESERVED = ("detail", "code", "hand", "state")


def top_field(field: str | None) -> str:
    """``tricks.N`` -> ``tricks``; no field -> ``non_field_errors``."""
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


def error_body(detail: str, code: str, fields: dict[str, list[str]] | None = None, **extra: Any) -> dict:
    body: dict[str, Any] = {"detail": detail, "code": code}
    for key, values in (fields or {}).items():
        body.setdefault(key, []).extend(values)
    body.update({key: value for key, value in extra.items() if value is not None})
    return body


def validation_body(detail: Any) -> dict:
    fields: dict[str, list[str]] = {}
    items = detail.items() if isinstance(detail, dict) else [(NON_FIELD, detail)]
    for key, value in items:
        fields.setdefault(top_field(str(key)), []).extend(messages(value))
    first_key, first = next(((key, values[0]) for key, values in fields.items() if values), (NON_FIELD, "invalid"))
    summary = first if first_key == NON_FIELD else f"{first_key}: {first}"
    return error_body(summary, "invalid", fields)


def rules_field(error: RulesError) -> str:
    # Options arrive in the request as ``options`` (first_dealer also at the top level).
    if isinstance(error, InvalidOptions) and error.field != "first_dealer":
        return "options"
    return top_field(error.field)


def domain_response(exc: Exception) -> Response | None:
    """A response for the services' and the engine's errors, or None for anything else."""
    if isinstance(exc, InvalidHand):
        body = error_body(str(exc), "invalid_hand", {rules_field(exc): [exc.message]}, hand=exc.number)
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RulesError):
        code = "unknown_game" if isinstance(exc, UnknownGame) else "invalid_options"
        field = rules_field(exc)
        detail = exc.message if field == NON_FIELD else f"{field}: {exc.message}"
        return Response(error_body(detail, code, {field: [exc.message]}), status=status.HTTP_400_BAD_REQUEST)
    if not isinstance(exc, ServiceError):
        return None
    if isinstance(exc, InvalidInput):
        field = top_field(exc.field)
        detail = exc.message if field == NON_FIELD else f"{field}: {exc.message}"
        code = "similar_name" if isinstance(exc, SimilarName) else "invalid"
        return Response(error_body(detail, code, {field: [exc.message]}), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, InvitationClosed):
        return Response(error_body(exc.message, "invitation_closed"), status=status.HTTP_410_GONE)
    if isinstance(exc, NotAllowed):
        return Response(error_body(exc.message, "not_allowed"), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, NotFound):
        return Response(error_body(exc.message, "not_found"), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, HandConflict):
        return Response(error_body(exc.message, "hand_conflict", state=exc.state), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, GameClosed):
        return Response(error_body(exc.message, "game_closed"), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IdempotencyMismatch):
        return Response(error_body(exc.message, "idempotency_mismatch"),
                        status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    return Response(error_body(exc.message, "error"), status=status.HTTP_400_BAD_REQUEST)


def handler(exc: Exception, context: dict) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every error, one shape."""
    domain = domain_response(exc)
    if domain is not None:
        return domain
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # an unexpected error: let it be a 500 and reach the logs
    if isinstance(exc, exceptions.ValidationError):
        response.data = validation_body(exc.detail)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(str(exc.detail), code)
    return response

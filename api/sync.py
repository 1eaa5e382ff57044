"""Following changes without re-reading everything: moments to start after, and cursor pages.

A cursor page is ordered by a moment (``updated_at`` or ``finished_at``) and then the id, ascending; its
``next`` link carries an opaque ``cursor`` naming the last row given, so rows changing meanwhile are
neither skipped nor repeated within one pass. ``previous`` is always null: a pass only goes forward.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

ORDERS = ("updated_at", "finished_at")
DEFAULT_SIZE, MAX_SIZE = 50, 100


class Moment(serializers.DateTimeField):
    """An ISO 8601 moment; a ``+`` of a UTC offset that arrived as a space (unencoded in a URL) is read back."""

    def to_internal_value(self, value):
        if isinstance(value, str) and "T" in value and " " in value:
            value = value.replace(" ", "+")
        return super().to_internal_value(value)


def encode(order: str, moment: Any, pk: int) -> str:
    raw = json.dumps({"o": order, "v": moment.isoformat(), "id": pk}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str) -> tuple[str, Any, int]:
    try:
        raw = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        order, moment, pk = raw["o"], parse_datetime(raw["v"]), raw["id"]
        if order not in ORDERS or moment is None or not isinstance(pk, int):
            raise ValueError
    except (ValueError, TypeError, KeyError, UnicodeDecodeError):
        raise ValidationError({"cursor": ["this is not a cursor the API gave; start again from a moment "
                                          "(updated_after)"]}) from None
    return order, moment, pk


def page_size(request) -> int:
    raw = request.query_params.get("page_size")
    if raw is None:
        return DEFAULT_SIZE
    try:
        size = int(raw)
    except ValueError:
        size = 0
    if not 1 <= size <= MAX_SIZE:
        raise ValidationError({"page_size": [f"a page has 1 to {MAX_SIZE} rows"]})
    return size


def cursor_page(request, rows: QuerySet, *, order: str, cursor: str | None, serializer_class,
                context: dict | None = None) -> Response:
    """One forward page of ``rows`` in ``order`` then id: ``{"count", "next", "previous", "results"}``.

    ``count`` is how many rows match the filters in all (not only after the cursor).
    """
    if "page" in request.query_params:
        raise ValidationError({"page": ["cursor pages are not numbered: follow `next`"]})
    count = rows.count()
    if cursor:
        order, moment, pk = decode(cursor)
        rows = rows.filter(Q(**{f"{order}__gt": moment}) | Q(**{order: moment, "pk__gt": pk}))
    size = page_size(request)
    found = list(rows.order_by(order, "pk")[:size + 1])
    more, found = len(found) > size, found[:size]
    link = None
    if more:
        last = found[-1]
        link = replace_query_param(request.build_absolute_uri(), "cursor", encode(order, getattr(last, order), last.pk))
    results = serializer_class(found, many=True, context=context or {}).data
    return Response({"count": count, "next": link, "previous": None, "results": results})

"""What every API view shares: JSON in, the one error shape out, lookups that 404 what you may not see,
idempotency keys and entity tags read from the request's headers."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from api.pagination import Pages
from api.parsers import SafeJSONParser
from api.schema import ScorekeeperSchema
from api.serializers.common import MAX_ID, text_problem
from games import policy
from games.idempotency import MAX_KEY

# Printable ASCII, not starting or ending with a space (HTTP would strip it).
KEY_PATTERN = rf"^[!-~]([ -~]{{0,{MAX_KEY - 2}}}[!-~])?$"
KEY = re.compile(KEY_PATTERN)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False, pattern=KEY_PATTERN,
    description=f"Up to {MAX_KEY} printable ASCII characters, unique per request you mean (a UUID will do). "
                "A retry with the same key and body gets the first answer and changes nothing more; the same key "
                "with a different body is a 422; a retry sent while the first is still being handled waits for it. "
                "Keys are kept per user and per kind of request.",
)

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The ETag of an earlier answer (weak or strong): unchanged since, the answer is a 304 with no body.",
)


class ApiView(GenericAPIView):
    parser_classes = [SafeJSONParser]
    pagination_class: type[BasePagination] | None = Pages
    schema = ScorekeeperSchema()
    # OPTIONS answers with the allowed methods (below); the schema describes the rest.
    metadata_class = None
    error_statuses: tuple[int, ...] = ()

    def options(self, request, *args, **kwargs):
        """``Allow`` lists what this endpoint answers; the schema (``/api/v1/schema/``) says the rest."""
        return Response(status=status.HTTP_204_NO_CONTENT)

    def parse(self, serializer_class, data=None, **kwargs) -> dict[str, Any]:
        """The request body checked for shape by ``serializer_class``, or a 400."""
        serializer = serializer_class(data=self.request.data if data is None else data, **kwargs)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def page(self, queryset, serializer_class):
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(serializer_class(page, many=True).data)


def one(queryset, pk: Any, what: str = "object"):
    """The row with this id in ``queryset`` (already cut to what the user may see), or a 404."""
    if isinstance(pk, bool) or not isinstance(pk, int) or not 0 < pk <= MAX_ID:
        raise NotFound(f"there is no {what} {pk}")
    found = queryset.filter(pk=pk).first()
    if found is None:
        raise NotFound(f"there is no {what} {pk}")
    return found


def path_text(value: str, what: str) -> str:
    """A name taken from the URL (a username), or a 404 when no stored name could be spelt that way."""
    if text_problem(value) or len(value) > 150:
        raise NotFound(f"there is no {what} with that name")
    return value


def league_to_play_in(user, pk: int | None):
    """The league named in a request body: None for a casual game.

    One the user cannot see is a 400 on ``league``, worded exactly as for a league that does not
    exist, so that a private league's existence is not given away.
    """
    if pk is None:
        return None
    league = policy.visible_leagues(user).filter(pk=pk).first()
    if league is None:
        raise ValidationError({"league": [f"there is no league {pk}"]})
    return league


def visible_league_filter(user, pk: int | None) -> int | None:
    """A league named in a query filter (``?league=``), checked: one the user cannot see is a 400 on
    ``league``, worded exactly as for a league that does not exist. One query."""
    if pk is None:
        return None
    if not policy.visible_leagues(user).filter(pk=pk).exists():
        raise ValidationError({"league": [f"there is no league {pk}"]})
    return pk


def idempotency_key(request) -> str | None:
    """The request's ``Idempotency-Key`` header, or None; a malformed one is a 400."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not KEY.fullmatch(key):
        raise ValidationError({"idempotency_key": [f"an idempotency key is 1 to {MAX_KEY} printable ASCII characters"]})
    return key


def if_match(request) -> list[str] | None:
    """The entity tags of the request's ``If-Match`` header, unquoted: None without one (or with ``*``).

    A weak tag never matches (If-Match compares strongly); a header that lists no tag matches nothing.
    """
    header = request.headers.get("If-Match")
    if header is None:
        return None
    tags = parse_etags(header)
    if tags == ["*"]:
        return None
    return [tag[1:-1] for tag in tags if not tag.startswith("W/")]


LOCATION = OpenApiParameter("Location", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[201],
                            description="Where the new object can be read.")


def created(body: Any, url_name: str, *args: Any) -> Response:
    """A 201 with the new object's body, and its address in ``Location``."""
    return Response(body, status=status.HTTP_201_CREATED, headers={"Location": reverse(url_name, args=args)})


def etag(version: str) -> str:
    return f'"{version}"'

"""What every API view shares: JSON in, the one error shape out, lookups that 404 what you may not see."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.generics import GenericAPIView

from api.pagination import Pages
from api.parsers import SafeJSONParser
from api.schema import ScorekeeperSchema
from api.serializers.common import MAX_ID
from games import policy

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The ETag of an earlier answer (weak or strong): unchanged since, the answer is a 304 with no body.",
)


class ApiView(GenericAPIView):
    parser_classes = [SafeJSONParser]
    pagination_class = Pages
    schema = ScorekeeperSchema()
    # OPTIONS describes nothing the schema does not; without this it needs a serializer_class per view.
    metadata_class = None
    error_statuses: tuple[int, ...] = ()

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


def league_to_play_in(user, pk: int | None):
    """The league named in a request body: None for a casual game; a 400 if the user cannot see it."""
    if pk is None:
        return None
    league = policy.visible_leagues(user).filter(pk=pk).first()
    if league is None:
        raise ValidationError({"league": [f"there is no league {pk}"]})
    return league

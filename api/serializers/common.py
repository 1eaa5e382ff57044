"""Shape checks every request shares: no unknown fields, JSON that the database can store."""

from __future__ import annotations

import math
from typing import Any

from rest_framework import serializers

# The largest id a row can have (a signed 64-bit key); larger numbers cannot name anything.
MAX_ID = 2**63 - 1
MAX_DEPTH = 16


def json_problem(value: Any) -> str | None:
    """Why ``value`` cannot be stored as JSON (a NUL or unpaired surrogate in text, a non-finite
    number, nesting deeper than any hand record needs), or None."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return problem
        elif isinstance(item, float) and not math.isfinite(item):
            return "numbers must be finite"
        elif isinstance(item, dict):
            for key, child in item.items():
                stack += [(key, depth + 1), (child, depth + 1)]
        elif isinstance(item, list):
            stack += [(child, depth + 1) for child in item]
    return None


def text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "text cannot contain NUL characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "text must be valid Unicode"
    return None


def check_text(text: str) -> None:
    problem = text_problem(text)
    if problem:
        raise serializers.ValidationError(problem)


class Text(serializers.CharField):
    """A string that the database can store."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators.append(check_text)


class JSONObject(serializers.JSONField):
    """A free-form JSON object (checked by the rules engine), storable as it stands."""

    default_error_messages = {"not_object": "Expected an object."}

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            self.fail("not_object")
        problem = json_problem(data)
        if problem:
            raise serializers.ValidationError(problem)
        return data


def Id(**kwargs) -> serializers.IntegerField:  # noqa: N802 - reads as a field type
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class Strict(serializers.Serializer):
    """A request body with only the fields the serializer names; anything else is a 400."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["unknown field"] for name in unknown}
                )
        return super().to_internal_value(data)


class SeatsIn(Strict):
    """``{"N": player_id, "E": ..., "S": ..., "W": ...}``"""

    N = Id()
    E = Id()
    S = Id()
    W = Id()


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeatsOut(serializers.Serializer):
    """Each seat's player, ``{"N": {"id": 1, "name": "Ann"}, ...}``."""

    N = PlayerRef(source="north")
    E = PlayerRef(source="east")
    S = PlayerRef(source="south")
    W = PlayerRef(source="west")


class Error(serializers.Serializer):
    """The one error shape (see api/exceptions.py and docs/api.md)."""

    detail = serializers.CharField()
    code = serializers.CharField()
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)
    hand = serializers.IntegerField(required=False, help_text="The number of the hand refused.")
    state = serializers.DictField(required=False, help_text="The game as it now stands (409 on a game).")

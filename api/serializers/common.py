"""Shape checks every request shares: no unknown fields, JSON that the database can store, and each value of
the JSON type the schema names (``"0"`` is not a number, ``0`` is not a name, ``"true"`` is not a boolean)."""

from __future__ import annotations

import math
import re
from typing import Any

from rest_framework import serializers

from games.rules import shown

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


class StringsOnly(serializers.Field):
    """A text field that takes only JSON strings (DRF's would take ``0`` as the name ``"0"``)."""

    default_error_messages = {"not_a_string": "must be a string, not {value}"}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string", value=shown(data))
        return super().to_internal_value(data)


# Text with no NUL, and (NOT_BLANK) at least one character that is neither NUL nor white space. The same
# patterns check requests here and describe them in the schema (they read the same as ECMA and Python
# regular expressions); "white space" is every character either language counts as such.
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = (r"^[^\x00]*[^\x00\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f"
             r"\u3000\ufeff][^\x00]*$")
NOT_BLANK_TEXT = re.compile(NOT_BLANK)


class Text(StringsOnly, serializers.CharField):
    """A string that the database can store; unless ``allow_blank``, one with something written in it.

    Taken as sent (surrounding white space is the services' to trim), so that its length is the one
    the schema's ``maxLength`` counts.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)
        self.validators.append(check_text)
        if not self.allow_blank:
            self.validators.append(self.check_not_blank)

    @property
    def pattern(self) -> str:
        return NO_NUL if self.allow_blank else NOT_BLANK

    def check_not_blank(self, text: str) -> None:
        if not NOT_BLANK_TEXT.fullmatch(text):
            self.fail("blank")


class Secret(StringsOnly, serializers.CharField):
    """A password: any text (white space counts), with no NUL."""

    pattern = NO_NUL

    def __init__(self, **kwargs):
        super().__init__(trim_whitespace=False, **kwargs)
        self.validators.append(check_text)


class Slug(StringsOnly, serializers.SlugField):
    """A slug: letters, digits, hyphens and underscores."""


class JSONInteger(serializers.IntegerField):
    """A JSON whole number (DRF's would take ``"5"``, ``5.0`` and ``true``)."""

    default_error_messages = {"not_a_number": "must be a whole number, not {value}"}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_a_number", value=shown(data))
        return super().to_internal_value(data)


class JSONBoolean(serializers.BooleanField):
    """``true`` or ``false`` (DRF's would take ``"yes"``, ``1`` and ``"on"``)."""

    default_error_messages = {"not_a_boolean": "must be true or false, not {value}"}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("not_a_boolean", value=shown(data))
        return data


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
    """An id in a request body."""
    return JSONInteger(min_value=1, max_value=MAX_ID, **kwargs)


def QueryId(**kwargs) -> serializers.IntegerField:  # noqa: N802 - reads as a field type
    """An id in a query string (where every value is text)."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class QueryFilter(serializers.Serializer):
    """Query parameters: an empty one (``?status=``) is refused rather than taken as "any"."""

    def to_internal_value(self, data):
        empty = sorted(name for name in self.fields if name in data and data.get(name) == "")
        if empty:
            raise serializers.ValidationError({name: ["give a value, or leave the parameter out"] for name in empty})
        return super().to_internal_value(data)


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
    """The one error shape, RFC 9457 Problem Details plus ``code`` (see api/exceptions.py and docs/api.md)."""

    type = serializers.CharField(help_text="Always `about:blank`: `status` and `code` say what happened.")
    title = serializers.CharField(help_text="The name of the status, e.g. `Not Found`.")
    status = serializers.IntegerField(help_text="The HTTP status code.")
    detail = serializers.CharField(help_text="A sentence for a person.")
    code = serializers.CharField(help_text="A stable word for a program, e.g. `invalid_hand`.")
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)
    hand = serializers.IntegerField(required=False, help_text="The number of the hand refused.")
    state = serializers.DictField(required=False, help_text="The game as it now stands (409 on a game).")

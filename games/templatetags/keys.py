"""``{% new_key %}``: a fresh idempotency key for a form, so that the same form sent twice (a double tap, a
retry after a lost answer) is one write."""

from __future__ import annotations

import uuid

from django import template

register = template.Library()


@register.simple_tag
def new_key() -> str:
    return uuid.uuid4().hex

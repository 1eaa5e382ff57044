"""``{% bgstats_url game as url %}``: the BG Stats push link of a finished game (``games.bgstats``)."""

from __future__ import annotations

from django import template

from games.bgstats import bgstats_url as push_link

register = template.Library()


@register.simple_tag
def bgstats_url(game) -> str:
    return push_link(game) or ""

"""Values kept in the cache for as long as what they were made from is unchanged: each under a key that names its
version (a rendered board under its ETag, a player's records under what they were counted from), so that nothing
kept is ever stale and nothing needs taking out. A cache that cannot be reached is passed by: the value is made
again, and the request answered."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)


def cached(key: str) -> Any | None:
    """What was kept under ``key``; None if nothing was, or the cache cannot be reached."""
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: the caller makes the value again rather than fail
        logger.warning("a kept value was made again: the cache cannot be reached", exc_info=True)
        return None


def keep(key: str, value: Any, seconds: int) -> None:
    """Keep ``value`` under ``key`` for ``seconds`` (a version nobody asks for again goes)."""
    try:
        cache.set(key, value, seconds)
    except Exception:  # noqa: BLE001 - the cache is down: the next request makes it again
        logger.warning("a value was not kept: the cache cannot be reached", exc_info=True)

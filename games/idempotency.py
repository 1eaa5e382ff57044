"""Idempotency keys: a write sent again with the same key gets the first answer back and is not done twice.

A key belongs to a user and a scope (what it was used for: recording hands in one game, starting
games...). Every write that takes a key stores its answer in the same transaction as the write, so
the two are committed together or not at all: a request that fails, for any reason, leaves its key
free at once, and a retry racing the first request waits for it (on the game's row lock, or on the
key's unique index) and then finds its answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from games import statements
from games.errors import IdempotencyMismatch
from games.models import Game, IdempotencyRecord

T = TypeVar("T")
Row = TypeVar("Row", bound=models.Model)
MAX_KEY = 200
# The scope of the keys that start games and matches, from the pages and the API alike: the same start
# sent twice through either makes one game.
GAME_STARTS = "games"


def fingerprint(request: Any) -> str:
    """A hash of what was asked, to tell a true retry from a different request reusing its key."""
    canonical = json.dumps(request, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def stored_answer(*, user, scope: str, key: str, request_hash: str) -> dict[str, Any] | None:
    """The answer stored for this key, or None if it was never used; a different request with it is refused."""
    stored = (IdempotencyRecord.objects.filter(user=user, scope=scope, key=key)
              .values_list("request_hash", "result").first())
    if stored is None:
        return None
    if stored[0] != request_hash:
        raise IdempotencyMismatch("this idempotency key was already used for a different request",
                                  field="idempotency_key")
    return stored[1]


def remember_answer(*, user, scope: str, key: str, request_hash: str, answer: dict[str, Any],
                    game: Game | None = None) -> None:
    # One statement written out once (games.statements): every hand recorded with a key ends here, sent with
    # the hand's own statements (``statements.sent_together``).
    statements.put(IdempotencyRecord, {"user": user.pk, "scope": scope, "key": key, "request_hash": request_hash,
                                          "result": answer, "game": game.pk if game else None,
                                          "created_at": timezone.now()})


def once(*, user, scope: str, key: str | None, request: Any, write: Callable[[], T],
         answer: Callable[[T], dict[str, Any]], lock: Callable[[], Any] | None = None,
         ) -> tuple[T | None, dict[str, Any], bool]:
    """Do ``write()`` at most once per key, in one transaction with its stored answer.

    ``lock``, if given, runs first (e.g. locking the game row), so that a retry racing the first
    request waits there and then finds its answer rather than repeating the write.
    Returns what ``write`` returned (None for a replay), the answer (``answer(result)``, or the one
    stored by the first request) and whether this was a replay. Without a key, just writes.
    """
    if not key or not getattr(user, "is_authenticated", False):
        result = write()
        return result, answer(result), False
    request_hash = fingerprint(request)
    for attempt in range(2):
        try:
            with transaction.atomic():
                if lock is not None:
                    lock()
                stored = stored_answer(user=user, scope=scope, key=key, request_hash=request_hash)
                if stored is not None:
                    return None, stored, True
                result = write()
                body = answer(result)
                remember_answer(user=user, scope=scope, key=key, request_hash=request_hash, answer=body,
                                game=result if isinstance(result, Game) else None)
                return result, body, False
        except IntegrityError:
            # A request with the same key committed first (the unique index made this one wait for it):
            # the next attempt finds its answer.
            if attempt:
                raise
    raise AssertionError("unreachable")


def row_answer(row: models.Model) -> dict[str, Any]:
    return {"id": row.pk}


def row_once(*, user, scope: str, key: str | None, request: Any, write: Callable[[], Row],
             rows: models.QuerySet[Row], lock: Callable[[], Any] | None = None) -> Row:
    """``once`` for a write that makes or changes one row: a replay gets that row (from ``rows``) as it is now."""
    made, answer, replayed = once(user=user, scope=scope, key=key, request=request, write=write,
                                  answer=row_answer, lock=lock)
    if replayed or made is None:
        return rows.get(pk=answer["id"])
    return made

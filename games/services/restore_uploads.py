"""Restoring a backup of any size: a small one while its request waits (``league_restore``), a larger one as
background work that reads the stored upload with a streaming JSON parser (docs/league-backup.md).

A request hands over the backup's bytes as they arrive (:func:`backup_accept`): up to ``in_request_bytes()`` it
is parsed and restored there and then, as it always was; past that its bytes are stored in the database a chunk
at a time (:class:`~games.models.LeagueRestore`) and a Celery task restores it (:func:`upload_restore`), so
neither the request nor the worker ever holds the whole backup, and the request answers at once.

The background restore keeps every guarantee of one made in the request. It reads the upload three times:

1. the document's head: everything but its games (whatever order the fields come in), counting the games;
2. the games one at a time, each checked against its part of the schema and re-scored, every problem kept
   (a few hundred, then only counted), nothing stored; then the head's checks, the seasons', the nights';
3. only if nothing was found: the games again, re-scored and written a batch at a time in one transaction
   with the league, its players, seasons, matches and nights, and the restore marked done in that same
   transaction; the standings follow once it commits, as after any restore.

Memory is the head's (players, seasons, matches, nights: small beside the games), each game's key, and one
batch; not the league's games.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

import ijson
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from games import events
from games.backup.schema import FORMAT, VERSION
from games.errors import InvalidInput, NotAllowed
from games.idempotency import once
from games.models import LeagueRestore, RestoreChunk
from games.rules import shown

from .leagues import checked_slug
from .restore import BATCH, Checking, ImportRefused, ImportReport, LeagueWriting, check_header, league_restore
from .transfer import batches

logger = logging.getLogger(__name__)

# A backup up to this size is restored while its request waits, as it always was: 2.5 MB, Django's limit on
# a request body read whole (DATA_UPLOAD_MAX_MEMORY_SIZE), is a league of about 700 games, restored in well
# under a second. Larger ones are stored and restored in the background. ``RESTORE_IN_REQUEST_BYTES``
# (settings) overrides it.
IN_REQUEST_BYTES = 2_621_440
# Larger than this is refused outright (413): a league of 100,000 games is a few hundred megabytes.
MAX_BACKUP_BYTES = 1024 * 1024 * 1024
# The pieces an upload is stored in, and read back in.
CHUNK_BYTES = 1024 * 1024
BOM = b"\xef\xbb\xbf"
SCOPE = "leagues:restore"
# How long the count of games written stays readable in the cache (it is in the restore's row once done).
PROGRESS_SECONDS = 6 * 3600


class BackupTooLarge(InvalidInput):
    """The upload is larger than ``max_backup_bytes()``."""

    @staticmethod
    def too_large_message() -> str:
        return (f"the backup is larger than {max_backup_bytes() // (1024 * 1024):,} MB, the most a restore takes; "
                "restore it with the import_league command instead")


def in_request_bytes() -> int:
    return int(getattr(settings, "RESTORE_IN_REQUEST_BYTES", IN_REQUEST_BYTES))


def max_backup_bytes() -> int:
    return int(getattr(settings, "RESTORE_MAX_BYTES", MAX_BACKUP_BYTES))


def too_large() -> BackupTooLarge:
    return BackupTooLarge(BackupTooLarge.too_large_message(), field="document")


def parsed(body: bytes) -> Any:
    """A small backup's document; InvalidInput if it is not JSON."""
    try:
        return json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise InvalidInput(f"this file is not a Scorekeeper backup (it is not JSON: {error})", field="document") from None


def backup_accept(chunks: Iterable[bytes], *, by, name: str | None = None, slug: str | None = None,
                  idempotency_key: str | None = None) -> ImportReport | LeagueRestore:
    """A backup's bytes, as they arrive: restored now (the report) if small, else stored and queued (the restore).

    Refused at once (InvalidInput) if it is larger than ``max_backup_bytes()`` (:class:`BackupTooLarge`), if
    its beginning is not JSON or not a backup of a version this site reads, or if ``slug`` is not an address
    a league can have. A retry with the same ``idempotency_key`` gets the same report, or the same restore.
    """
    if by is None or not by.is_authenticated:
        raise NotAllowed("sign in to restore a league")
    threshold = in_request_bytes()
    pieces = iter(chunks)
    head = bytearray()
    for chunk in pieces:
        head += chunk
        if len(head) > threshold:
            break
    else:
        return league_restore(document=parsed(bytes(head)), by=by, name=name, slug=slug,
                              idempotency_key=idempotency_key)
    return upload_store(chain([bytes(head)], pieces), by=by, name=name or "", slug=slug or "",
                        idempotency_key=idempotency_key)


def upload_store(chunks: Iterable[bytes], *, by, name: str, slug: str, idempotency_key: str | None) -> LeagueRestore:
    """Store an upload a chunk at a time and queue its restore; the restore (a retry's: the first one's)."""
    limit = max_backup_bytes()
    digest = hashlib.sha256()
    size = 0
    with transaction.atomic():
        restore = LeagueRestore.objects.create(created_by=by, name=name, slug=slug, size=0, sha256="")
        buffer = bytearray()
        number = 0
        for chunk in chunks:
            size += len(chunk)
            if size > limit:
                raise too_large()  # the transaction is rolled back: nothing of it is kept
            digest.update(chunk)
            buffer += chunk
            while len(buffer) >= CHUNK_BYTES:
                if number == 0:
                    sniff(bytes(buffer[:CHUNK_BYTES]))
                chunk_insert(restore.pk, number, bytes(buffer[:CHUNK_BYTES]))
                del buffer[:CHUNK_BYTES]
                number += 1
        if buffer or number == 0:
            if number == 0:
                sniff(bytes(buffer))
            chunk_insert(restore.pk, number, bytes(buffer))
        restore.size, restore.sha256 = size, digest.hexdigest()
        restore.save(update_fields=["size", "sha256"])

    def queue() -> LeagueRestore:
        if slug:
            checked_slug(slug)  # a retry finds its answer first, when the address is its own league's
        events.publish(events.RestoreUploaded(restore_id=restore.pk))  # the task is queued once this commits
        return restore

    def answer(made: LeagueRestore | None) -> dict[str, Any]:
        assert made is not None  # ``once`` hands over what ``queue`` returned
        return {"restore": made.pk}

    try:
        made, stored, replayed = once(user=by, scope=SCOPE, key=idempotency_key,
                                      request={"sha256": restore.sha256, "size": size, "name": name, "slug": slug},
                                      write=queue, answer=answer)
    except Exception:
        restore.delete()  # refused (or a key used for another request): the upload is not kept
        raise
    if replayed:
        restore.delete()  # the same upload again: the first one's restore answers
        return LeagueRestore.objects.get(pk=stored["restore"])
    assert made is not None
    return made


def chunk_insert(restore_id: int, number: int, data: bytes) -> None:
    """Store one chunk. On PostgreSQL its bytes go as a parameter of their own (server-side binding), not
    escaped into the statement's text as the connection's other statements are: half the bytes to send, and no
    time spent escaping them."""
    if connection.vendor != "postgresql":
        RestoreChunk.objects.create(restore_id=restore_id, number=number, data=data)
        return
    import psycopg

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(f"INSERT INTO {RestoreChunk._meta.db_table} (restore_id, number, data) VALUES (%s, %s, %s)",
                       [restore_id, number, data])


def sniff(first: bytes) -> None:
    """Refuse at once an upload whose beginning is not JSON, not an object, or a backup of another format or
    version (the fields a backup begins with); the rest is checked in the background."""
    # Cut after the last ASCII byte, so that a character split between two chunks is not taken for an error.
    text = first[len(BOM):] if first.startswith(BOM) else first
    text = text.rstrip(bytes(range(128, 256)))
    seen = set()
    try:
        for prefix, event, value in ijson.parse(io.BytesIO(text), use_float=True):
            if prefix == "" and event not in ("start_map", "map_key", "end_map"):
                raise InvalidInput(f"not a {FORMAT} document", field="format")
            if prefix == "format" and value != FORMAT:
                raise InvalidInput(f"not a {FORMAT} document", field="format")
            if prefix == "version" and value != VERSION:
                raise InvalidInput(f"version {shown(value)} is not supported (only {VERSION})", field="version")
            if prefix in ("format", "version"):
                seen.add(prefix)
            if len(seen) == 2:
                return
    except ijson.JSONError as error:
        if "premature EOF" not in str(error):
            raise InvalidInput(f"this file is not a Scorekeeper backup (it is not JSON: {error})",
                               field="document") from None


# --- the background restore -------------------------------------------------------------------------------


class StoredBackup(io.RawIOBase):
    """A stored upload as a file to read, a chunk fetched from the database at a time (a byte-order mark dropped)."""

    def __init__(self, restore_id: int):
        super().__init__()
        self.restore_id = restore_id
        self.number = 0
        self.chunk = memoryview(b"")
        self.offset = 0
        self.consumed = 0

    def readable(self) -> bool:
        return True

    def fetch(self) -> bool:
        data = (RestoreChunk.objects.filter(restore_id=self.restore_id, number=self.number)
                .values_list("data", flat=True).first())
        if data is None:
            return False
        data = bytes(data)
        if self.number == 0 and data.startswith(BOM):
            data = data[len(BOM):]
        self.number += 1
        self.chunk, self.offset = memoryview(data), 0
        return True

    def readinto(self, target) -> int:
        while self.offset >= len(self.chunk):
            if not self.fetch():
                return 0
        count = min(len(target), len(self.chunk) - self.offset)
        target[:count] = self.chunk[self.offset:self.offset + count]
        self.offset += count
        self.consumed += count
        return count


def building(events_: Iterator[tuple[str, str, Any]], event: str, value: Any) -> Any:
    """The value whose first event is (event, value), built from the events that follow it."""
    if event not in ("start_map", "start_array"):
        return value
    builder = ijson.ObjectBuilder()
    builder.event(event, value)
    depth = 1
    for _, event, value in events_:
        builder.event(event, value)
        if event in ("start_map", "start_array"):
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
            if depth == 0:
                break
    return builder.value


def document_head(stream: io.RawIOBase) -> tuple[Any, int]:
    """Every field of the document but its games, and how many games it lists: the games' events are only
    counted. ``games`` in the head is ``[]`` when the document's is a list (whatever its length)."""
    events_ = ijson.parse(io.BufferedReader(stream, CHUNK_BYTES), use_float=True)
    first = next(events_, None)
    if first is None:
        raise InvalidInput("this file is not a Scorekeeper backup (it is empty)", field="document")
    _, event, value = first
    if event != "start_map":
        value = building(events_, event, value)
        for _ in events_:  # anything after it is an error
            pass
        return value, 0
    head: dict[str, Any] = {}
    games = 0
    for prefix, event, value in events_:
        if prefix == "" and event == "map_key":
            key = value
            prefix, event, value = next(events_)
            if key == "games" and event == "start_array":
                head["games"] = []
                for prefix, event, _ in events_:
                    if prefix == "games.item" and event not in ("end_map", "end_array", "map_key"):
                        games += 1
                    elif prefix == "games" and event == "end_array":
                        break
            else:
                head[key] = building(events_, event, value)
    return head, games


def game_entries(stream: io.RawIOBase) -> Iterator[Any]:
    """The document's games, one at a time."""
    return ijson.items(io.BufferedReader(stream, CHUNK_BYTES), "games.item", use_float=True)


def written_key(restore_id: int) -> str:
    return f"league-restore:{restore_id}:written"


def games_written(restore: LeagueRestore) -> int:
    """Games written so far: while the transaction writing them is open, only the cache knows."""
    if restore.state == LeagueRestore.State.WRITING:
        return int(cache.get(written_key(restore.pk)) or 0)
    return restore.games_written


def upload_restore(restore_id: int) -> LeagueRestore:
    """Check a stored upload whole, then, if nothing is wrong, write it (see the module's docstring).

    Run again (a worker lost, a retry) it starts over, unless it is finished; what a run wrote is all in one
    transaction, with the restore marked done, so it is there once or not at all.
    """
    restore = LeagueRestore.objects.select_related("created_by").get(pk=restore_id)
    if restore.finished:
        return restore
    progress(restore, state=LeagueRestore.State.CHECKING, games_checked=0, bytes_read=0)
    try:
        head, total = document_head(StoredBackup(restore.pk))
        progress(restore, games_total=total)
        about = check_header(head)
        checking = check_all(restore, head, about)
        progress(restore, state=LeagueRestore.State.WRITING)
        write_all(restore, checking, about)
    except ImportRefused as refused:
        finish(restore, state=LeagueRestore.State.REFUSED, problems=refused.problems, problem_count=refused.total)
    except ijson.JSONError as error:
        finish(restore, state=LeagueRestore.State.REFUSED, problem_count=1,
               problems=[f"this file is not a Scorekeeper backup (it is not JSON: {str(error).splitlines()[0]})"])
    except InvalidInput as error:
        finish(restore, state=LeagueRestore.State.REFUSED, problems=[error.message], problem_count=1)
    except Exception:
        logger.exception("the restore %s stopped on an error", restore.pk)
        finish(restore, state=LeagueRestore.State.FAILED)
        raise
    return restore


def check_all(restore: LeagueRestore, head: dict[str, Any], about: dict[str, Any]) -> Checking:
    """Every game checked (nothing kept of them but their keys and problems), then everything else."""
    checking = Checking(head)
    stream = StoredBackup(restore.pk)
    for count, _ in enumerate(game_entries(stream), start=1):
        checking.game(_)
        if count % BATCH == 0:
            progress(restore, games_checked=count, bytes_read=stream.consumed)
    progress(restore, games_checked=checking.count, bytes_read=restore.size)
    checking.seasons, checking.default_options = checking.verdict(about)
    checking.forget_games()
    return checking


def write_all(restore: LeagueRestore, checking: Checking, about: dict[str, Any]) -> None:
    """Write the checked backup in one transaction, the restore marked done in it."""
    again = Checking(checking.head, validated=True)  # the same bytes, read again: re-scored, not re-validated
    with transaction.atomic():
        # Two runs of one restore (a task handed out twice) take turns here: the second finds it done.
        if LeagueRestore.objects.select_for_update().get(pk=restore.pk).state == LeagueRestore.State.DONE:
            return
        writing = LeagueWriting.begin(checking, about, seasons=checking.seasons,
                                      default_options=checking.default_options,
                                      by=restore.created_by, name=restore.name or None, slug=restore.slug or None,
                                      keep_slug=False)
        written = 0
        for batch in batches(game_entries(StoredBackup(restore.pk)), BATCH):
            checked = [game for entry in batch if (game := again.game(entry)) is not None]
            if len(checked) < len(batch):  # the same bytes, checked a moment ago: never, unless the code changed
                raise RuntimeError(f"a game of restore {restore.pk} passed its checks, then failed them")
            writing.games(checked)
            written += len(batch)
            cache.set(written_key(restore.pk), written, PROGRESS_SECONDS)
        report = writing.finish()
        events.publish(events.LeaguePlayersChanged(league=report.league))
        finish(restore, state=LeagueRestore.State.DONE, league=report.league, games_written=written,
               report={"league": report.league.pk, **report.as_dict()})


def progress(restore: LeagueRestore, **changes: Any) -> None:
    for name, value in changes.items():
        setattr(restore, name, value)
    restore.save(update_fields=list(changes))


def finish(restore: LeagueRestore, **changes: Any) -> None:
    """The restore's end; its upload is no longer needed."""
    progress(restore, finished_at=timezone.now(), **changes)
    RestoreChunk.objects.filter(restore=restore).delete()

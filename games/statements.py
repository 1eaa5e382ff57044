"""The statements of the hottest write, recording a hand, written out once instead of built per request.

Building a query costs the ORM more CPU than a hand costs everything else (the engine scores one in
microseconds); recording one takes four statements. Here they are written out once, from the models' own
table and column names, and their values go through each field's own ``get_db_prep_save``, as the ORM
would send them; on PostgreSQL each is prepared on the server once a connection (:func:`cursor`):

- :func:`read_for_write`: the game's row locked, its league, whether the league has active webhooks and the
  writer's role there, in one statement (every column converted as the ORM would, with the converters it
  would use);
- :func:`insert`, :func:`update`: a row in, or some of a row's columns changed by id;
- :func:`transaction`: the transaction they run in, in two round trips to PostgreSQL (the BEGIN with the
  locked read, the COMMIT with the writes).

Only ``games.services.hands`` (and the answer it stores, ``games.idempotency``) uses them, inside its
transaction; everything else writes through the ORM. One more is read after a write in a league with webhooks
commits (``games.webhooks.deliveries``): :func:`active_webhooks`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import connection
from django.db import transaction as django_transaction
from django.db.models import Model

from games import policy
from games.models import Game, League, Membership, WebhookEndpoint


def quoted(name: str) -> str:
    return connection.ops.quote_name(name)


@contextmanager
def cursor() -> Iterator[Any]:
    """A cursor for these statements. On PostgreSQL it sends the values apart from the statement
    (server-side binding), which costs less than writing each into the SQL text as Django's cursors do, and
    each statement is prepared, once a connection: the server neither parses nor plans it again (that was a
    large part of its work on a hand). Either way it logs its queries as Django's cursors do (the tests count
    them). Inside :func:`sent_together` it stays open until the block ends, when its statement's answer has
    come."""
    if connection.vendor != "postgresql":
        with connection.cursor() as django_cursor:
            yield django_cursor
        return
    pending = getattr(connection, PENDING, None)
    if pending is not None:
        wrapped = binding_cursor()
        pending.append((wrapped, None))
        yield wrapped
        return
    with binding_cursor() as wrapped:
        yield wrapped


PENDING = "scorekeeper_statements_sent_together"
OPEN = "scorekeeper_transaction_in_two_round_trips"


class Open:
    """A transaction of :func:`transaction` on the connection: the statements whose answers are read once it
    has committed."""

    def __init__(self) -> None:
        self.answers: list[tuple[Any, Sent | None]] = []


class NotInTwoRoundTrips(Exception):  # noqa: N818 - a signal to the caller, not an error
    """Raised inside :func:`transaction` by work that needs Django's own transaction (the ORM's row locks):
    the transaction is rolled back, and the caller does the work again in ``transaction.atomic()``."""


def in_two_round_trips() -> bool:
    """Whether a :func:`transaction` of its own (not Django's) is open on the connection."""
    return getattr(connection, OPEN, None) is not None


@contextmanager
def transaction() -> Iterator[None]:
    """A transaction for recording a hand: ``django.db.transaction.atomic()``, but on PostgreSQL (and outside any
    other transaction) in two round trips to the server, not four: the BEGIN goes with the first statement (the
    locked read) and the COMMIT with the last ones (the writes, sent together). psycopg sends a transaction's
    BEGIN on its own and waits for its answer, and Django's commit is one more wait; here the connection stays
    in autocommit and the transaction is begun and committed by statements of its own, queued with the others
    in psycopg's pipeline mode.

    Inside, only this module's statements and queries through Django's cursors run (both go into the
    transaction); ``transaction.on_commit`` would run at once, so nothing inside uses it: the caller tells what
    happened once the block is over. The answers of statements sent together (:func:`sent_together`) are read
    once the block has committed. On any error the transaction is rolled back (the server skipped whatever
    followed the failing statement) and the error raised: nothing is stored.
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block or in_two_round_trips():
        with django_transaction.atomic():
            yield
        return
    connection.ensure_connection()
    raw = connection.connection
    state = Open()
    setattr(connection, OPEN, state)
    try:
        with connection.wrap_database_errors:
            with raw.pipeline():
                raw.execute("BEGIN")  # queued: sent with the first statement
                yield
                raw.execute("COMMIT")  # queued: sent with the last ones, and every answer read
            for sent_cursor, sent in state.answers:
                if sent is not None:
                    sent.row = sent_cursor.fetchone()
    except BaseException:
        roll_back(raw)
        raise
    finally:
        setattr(connection, OPEN, None)
        for sent_cursor, _ in state.answers:
            sent_cursor.close()


def roll_back(raw: Any) -> None:
    """End a failed :func:`transaction` (its BEGIN may have gone, and the rest been skipped). A connection whose
    state cannot be told is closed rather than used again."""
    from psycopg import pq

    try:
        if not raw.closed and raw.info.transaction_status != pq.TransactionStatus.IDLE:
            raw.execute("ROLLBACK")
    except Exception:  # noqa: BLE001 - the connection is broken: drop it
        connection.close()


class Sent:
    """A statement sent inside :func:`sent_together`: ``row`` is the first row it returned, once the block has
    ended (at once outside one)."""

    row: tuple | None = None


@contextmanager
def sent_together() -> Iterator[None]:
    """The statements of this module run inside the block (none of them needing another's answer) are sent to
    PostgreSQL without waiting for each one's answer, and the answers read when the block ends (psycopg's
    pipeline mode): one round trip for them all; inside a :func:`transaction`, they go with its COMMIT, and
    their answers are read once it has committed. An error in one is raised when the block ends, as Django's
    error (``IntegrityError``...); the server has then skipped the rest, and the transaction they are part of
    is rolled back as after any failed statement. Elsewhere than PostgreSQL, or inside another such block,
    they go one at a time as usual."""
    if connection.vendor != "postgresql" or getattr(connection, PENDING, None) is not None:
        yield
        return
    open_transaction = getattr(connection, OPEN, None)
    if open_transaction is not None:
        # Already in a pipeline, which the COMMIT ends: the answers are read once it has committed.
        setattr(connection, PENDING, open_transaction.answers)
        try:
            yield
        finally:
            setattr(connection, PENDING, None)
        return
    connection.ensure_connection()
    pending: list[tuple[Any, Sent | None]] = []
    setattr(connection, PENDING, pending)
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            yield
        for sent_cursor, sent in pending:
            if sent is not None:
                sent.row = sent_cursor.fetchone()
    finally:
        setattr(connection, PENDING, None)
        for sent_cursor, _ in pending:
            sent_cursor.close()


def binding_cursor() -> Any:
    """A cursor binding values on the server, in Django's wrapper (PostgreSQL), whose statements are prepared:
    parsed and planned once a connection, then sent by name and values (``scorekeeper/postgresql``; unless the
    database settings turn preparation off)."""
    return connection.preparing_cursor()


@cache
def locked_read(vendor: str, lock: bool) -> str:
    """The statement for one database: the game's columns, ``league_public``, ``league_webhooks`` (whether the
    league has an active webhook endpoint) and ``writer_role``."""
    game, league, member, hook = (model._meta for model in (Game, League, Membership, WebhookEndpoint))
    columns = ", ".join(f"g.{quoted(field.column)}" for field in game.concrete_fields)
    lock_clause = " FOR UPDATE OF g" if lock else ""
    return (
        f"SELECT {columns}, l.{quoted('is_public')} AS league_public, "
        f"EXISTS (SELECT 1 FROM {quoted(hook.db_table)} w WHERE w.{quoted('league_id')} = g.{quoted('league_id')} "
        f"AND w.{quoted('is_active')}) AS league_webhooks, "
        f"(SELECT m.{quoted('role')} FROM {quoted(member.db_table)} m WHERE m.{quoted('league_id')} = "
        f"g.{quoted('league_id')} AND m.{quoted('user_id')} = %s LIMIT 1) AS writer_role "
        f"FROM {quoted(game.db_table)} g LEFT JOIN {quoted(league.db_table)} l ON l.{quoted('id')} = "
        f"g.{quoted('league_id')} WHERE g.{quoted('id')} = %s{lock_clause}"
    )


@cache
def converters_of(model: type[Model], vendor: str) -> tuple[tuple[int, Any, tuple], ...]:
    """(column index, column, converters) of each of the model's columns whose values the database hands back
    in another form (JSON as text, dates as text on SQLite...): what the ORM applies to the columns it reads."""
    meta, out = model._meta, []
    for index, field in enumerate(meta.concrete_fields):
        column = field.get_col(meta.db_table)
        found = (*connection.ops.get_db_converters(column), *field.get_db_converters(connection))
        if found:
            out.append((index, column, tuple(found)))
    return tuple(out)


def model_from_row(model: Any, values: list[Any]) -> Any:
    """A model instance from its columns' values as the database sent them (converted as the ORM would)."""
    for index, column, converters in converters_of(model, connection.vendor):
        for convert in converters:
            values[index] = convert(values[index], column, connection)
    return model.from_db(connection.alias, [field.attname for field in model._meta.concrete_fields], values)


def read_for_write(game_id: int, by) -> Game | None:
    """The game's row, locked until the transaction ends (where the database locks rows), with its league
    (only ``is_public`` read, and ``has_webhooks``; the rest loads if asked for) and ``by``'s role there
    remembered by the policy. None if there is no such game. Inside a :func:`transaction`, the statement goes
    with its BEGIN."""
    statement = locked_read(connection.vendor, connection.features.has_select_for_update_of)
    user_id = by.pk if by.is_authenticated else None
    with cursor() as reading:
        reading.execute(statement, [user_id, game_id])
        row = reading.fetchone()
    if row is None:
        return None
    fields = Game._meta.concrete_fields
    values = list(row[:len(fields)])
    for index, column, converters in converters_of(Game, connection.vendor):
        for convert in converters:
            values[index] = convert(values[index], column, connection)
    game = Game.from_db(connection.alias, [field.attname for field in fields], values)
    league_public, league_webhooks, writer_role = row[len(fields):]
    if game.league_id is not None:
        game.league = League.from_db(connection.alias, ["id", "is_public"], [game.league_id, bool(league_public)])
        game.league.has_webhooks = bool(league_webhooks)
        policy.remember_role(by, game.league, writer_role)
    return game


@cache
def insert_statement(model: type[Model], fields: tuple[str, ...], returning: bool) -> str:
    meta = model._meta
    columns = ", ".join(quoted(meta.get_field(name).column) for name in fields)
    values = ", ".join("%s" for _ in fields)
    tail = f" RETURNING {quoted(meta.pk.column)}" if returning else ""
    return f"INSERT INTO {quoted(meta.db_table)} ({columns}) VALUES ({values}){tail}"


@cache
def update_statement(model: type[Model], fields: tuple[str, ...]) -> str:
    meta = model._meta
    sets = ", ".join(f"{quoted(meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quoted(meta.db_table)} SET {sets} WHERE {quoted(meta.pk.column)} = %s"


def prepared(model: type[Model], values: Mapping[str, Any]) -> list[Any]:
    return [model._meta.get_field(name).get_db_prep_save(value, connection) for name, value in values.items()]


def insert_sent(model: Any, values: Mapping[str, Any]) -> Sent:
    """Insert a row (``values`` by field name); the :class:`Sent` holds ``(id,)`` once its answer has come
    (inside :func:`sent_together`, when the block ends)."""
    pending = getattr(connection, PENDING, None) if connection.vendor == "postgresql" else None
    sent = Sent()
    if pending is None:
        sent.row = (insert(model, values),)
        return sent
    inserting = binding_cursor()
    pending.append((inserting, sent))
    inserting.execute(insert_statement(model, tuple(values), True), prepared(model, values))
    return sent


def put(model: Any, values: Mapping[str, Any]) -> None:
    """Insert a row whose id nobody asks for (``values`` by field name)."""
    with cursor() as inserting:
        inserting.execute(insert_statement(model, tuple(values), False), prepared(model, values))


def insert(model: Any, values: Mapping[str, Any]) -> int:
    """Insert a row (``values`` by field name) and return its id."""
    returning = connection.features.can_return_columns_from_insert
    with cursor() as inserting:
        inserting.execute(insert_statement(model, tuple(values), returning), prepared(model, values))
        return inserting.fetchone()[0] if returning else inserting.lastrowid


def update(model: Any, pk: int, values: Mapping[str, Any]) -> None:
    """Change these columns of the row with id ``pk``."""
    with cursor() as updating:
        updating.execute(update_statement(model, tuple(values)), [*prepared(model, values), pk])



@cache
def active_webhooks_statement(vendor: str) -> str:
    meta = WebhookEndpoint._meta
    columns = ", ".join(quoted(field.column) for field in meta.concrete_fields)
    return (f"SELECT {columns} FROM {quoted(meta.db_table)} WHERE {quoted('league_id')} = %s "
            f"AND {quoted('is_active')} = %s ORDER BY {quoted('created_at')}, {quoted('id')}")  # the model's ordering


def active_webhooks(league_id: int) -> list[WebhookEndpoint]:
    """The league's active webhook endpoints (``WebhookEndpoint.objects.filter(league_id=..., is_active=True)``),
    each column converted as the ORM would. Asked after every hand recorded in a league, and most leagues have
    none: the statement is written once rather than built by the ORM each time."""
    fields = WebhookEndpoint._meta.concrete_fields
    with cursor() as reading:
        reading.execute(active_webhooks_statement(connection.vendor), [league_id, True])
        rows = reading.fetchall()
    endpoints = []
    names = [field.attname for field in fields]
    for row in rows:
        values = list(row)
        for index, column, converters in converters_of(WebhookEndpoint, connection.vendor):
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        endpoints.append(WebhookEndpoint.from_db(connection.alias, names, values))
    return endpoints

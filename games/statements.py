"""The statements of the hottest write, recording a hand, written out once instead of built per request.

Building a query costs the ORM more CPU than a hand costs everything else (the engine scores one in
microseconds); recording one takes four statements. Here they are written out once, from the models' own
table and column names, and their values go through each field's own ``get_db_prep_save``, as the ORM
would send them:

- :func:`read_for_write`: the game's row locked, its league and the writer's role there, in one statement
  (every column converted as the ORM would, with the converters it would use);
- :func:`insert`, :func:`update`: a row in, or some of a row's columns changed by id.

Only ``games.services.hands`` (and the answer it stores, ``games.idempotency``) uses them, inside its
transaction; everything else writes through the ORM. One more is read after every write in a league commits
(``games.webhooks.deliveries``): :func:`active_webhooks`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from games import policy
from games.models import Game, League, Membership, WebhookEndpoint


def quoted(name: str) -> str:
    return connection.ops.quote_name(name)


@contextmanager
def cursor() -> Iterator[Any]:
    """A cursor for these statements. On PostgreSQL it sends the values apart from the statement
    (server-side binding), which costs less than writing each into the SQL text as Django's cursors do;
    either way it logs its queries as Django's cursors do (the tests count them). Inside
    :func:`sent_together` it stays open until the block ends, when its statement's answer has come."""
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


class Sent:
    """A statement sent inside :func:`sent_together`: ``row`` is the first row it returned, once the block has
    ended (at once outside one)."""

    row: tuple | None = None


@contextmanager
def sent_together() -> Iterator[None]:
    """The statements of this module run inside the block (none of them needing another's answer) are sent to
    PostgreSQL without waiting for each one's answer, and the answers read when the block ends (psycopg's
    pipeline mode): one round trip for them all. An error in one is raised when the block ends, as Django's
    error (``IntegrityError``...); the server has then skipped the rest, and the transaction they are part of
    is rolled back as after any failed statement. Elsewhere than PostgreSQL, or inside another such block,
    they go one at a time as usual."""
    if connection.vendor != "postgresql" or getattr(connection, PENDING, None) is not None:
        yield
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
    """A psycopg cursor binding values on the server, in Django's wrapper (PostgreSQL)."""
    import psycopg

    connection.ensure_connection()
    raw = psycopg.Cursor(connection.connection)
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)


@cache
def locked_read(vendor: str, lock: bool) -> str:
    """The statement for one database: the game's columns, ``league_public`` and ``writer_role``."""
    game, league, member = (model._meta for model in (Game, League, Membership))
    columns = ", ".join(f"g.{quoted(field.column)}" for field in game.concrete_fields)
    lock_clause = " FOR UPDATE OF g" if lock else ""
    return (
        f"SELECT {columns}, l.{quoted('is_public')} AS league_public, "
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


def read_for_write(game_id: int, by) -> Game | None:
    """The game's row, locked until the transaction ends (where the database locks rows), with its league
    (only ``is_public`` read; the rest loads if asked for) and ``by``'s role there remembered by the policy.
    None if there is no such game."""
    statement = locked_read(connection.vendor, connection.features.has_select_for_update_of)
    user_id = by.pk if by.is_authenticated else None
    with cursor() as reading:
        if connection.vendor == "postgresql" and connection.in_atomic_block:
            # It opens the transaction: in pipeline mode psycopg sends the BEGIN with it, one round trip
            # to the server for the two rather than one each.
            with connection.wrap_database_errors, connection.connection.pipeline():
                reading.execute(statement, [user_id, game_id])
        else:
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
    league_public, writer_role = row[len(fields):]
    if game.league_id is not None:
        game.league = League.from_db(connection.alias, ["id", "is_public"], [game.league_id, bool(league_public)])
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

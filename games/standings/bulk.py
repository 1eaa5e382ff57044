"""Writing many standings rows at once, as plain tuples rather than model instances.

A large league's rebuild writes a hundred thousand rows. On PostgreSQL they go through ``COPY``
(one statement, no SQL to build per row); elsewhere through Django's ``bulk_create``. Only the
standings writers (``storage``) use this, inside their locked transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import JSONField, Model

BATCH = 2000


def insert_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert ``rows`` (values in the order of ``fields``, attribute names such as ``league_id``).

    Returns how many were inserted. Fields left out take their database default (the id).
    """
    if connection.vendor == "postgresql":
        return copy_rows(model, fields, rows)
    objects = [model(**dict(zip(fields, row, strict=True))) for row in rows]
    model.objects.bulk_create(objects, batch_size=BATCH)
    return len(objects)


def copy_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    from psycopg import sql
    from psycopg.types.json import Jsonb

    meta = model._meta
    columns = [field_of(model, name).column for name in fields]
    json_at = [index for index, name in enumerate(fields) if isinstance(field_of(model, name), JSONField)]
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(meta.db_table), sql.SQL(", ").join(sql.Identifier(column) for column in columns))
    count = 0
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            if json_at:
                row = list(row)
                for index in json_at:
                    row[index] = Jsonb(row[index])
            copy.write_row(row)
            count += 1
    return count


def field_of(model: type[Model], name: str):
    """The model field an attribute name stands for (``player_id`` is the ``player`` field)."""
    for field in model._meta.concrete_fields:
        if name in (field.name, field.attname):
            return field
    raise LookupError(f"{model.__name__} has no field {name}")


def update_rows(model: type[Model], fields: Sequence[str], rows: Sequence[Model]) -> int:
    """Set ``fields`` of each of ``rows`` (model instances with their ids) to the instance's values.

    On PostgreSQL one ``UPDATE ... FROM (VALUES ...)`` per few thousand rows, written out here (the ORM's
    ``bulk_update`` builds a ``CASE`` per field and row, which costs more than the update itself); elsewhere
    ``bulk_update``. Returns how many rows were updated.
    """
    if not rows:
        return 0
    if connection.vendor != "postgresql":
        model.objects.bulk_update(rows, fields, batch_size=500)
        return len(rows)
    meta = model._meta
    columns = [field_of(model, name) for name in fields]
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), meta.pk
    names = ", ".join(quote(column.column) for column in (pk, *columns))
    assignments = ", ".join(f"{quote(column.column)} = v.{quote(column.column)}" for column in columns)
    casts = [f"%s::{column.db_type(connection)}" for column in (pk, *columns)]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            batch = rows[start:start + BATCH]
            values = ", ".join(["(" + ", ".join(casts) + ")"] * len(batch))
            params = [value for row in batch for value in (
                pk.get_db_prep_save(row.pk, connection),
                *(column.get_db_prep_save(getattr(row, column.attname), connection) for column in columns))]
            cursor.execute(f"UPDATE {table} SET {assignments} FROM (VALUES {values}) AS v ({names}) "
                           f"WHERE {table}.{quote(pk.column)} = v.{quote(pk.column)}", params)
    return len(rows)

"""Rows written by every command (the fight, its roll log and intents, the health Attribute)
with statements made once for each model and set of fields, not by the ORM's compiler every
time: the compiler costs more than the write (``docs/performance.md``). The fields' own
conversions (JSON, pickled values, dates) apply, as the ORM's."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models.constants import OnConflict

#: {model or (model, field names): (its INSERT or UPDATE statement, its fields)}, made once.
_STATEMENTS: dict[Any, tuple[str, list]] = {}


def update(row, names: tuple[str, ...]) -> None:
    """UPDATE the fields ``names`` of ``row``, as ``save(update_fields=names)`` would."""
    model = type(row)
    if (model, names) not in _STATEMENTS:
        fields = [model._meta.get_field(name) for name in names]
        quote = connection.ops.quote_name
        _STATEMENTS[(model, names)] = (
            f"UPDATE {quote(model._meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in fields)} "
            f"WHERE {quote(model._meta.pk.column)} = %s", fields)
    sql, fields = _STATEMENTS[(model, names)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*(f.get_db_prep_save(f.pre_save(row, False), connection) for f in fields), row.pk])


def insert(rows: list, *, ignore_conflicts: bool = False) -> None:
    """INSERT ``rows`` (new rows of one model: roll-log entries, intents, a page's narration)
    in one statement, made once for each model and number of rows rather than by the ORM's
    compiler every time (each command writes a few, and ``bulk_create`` costs more than the
    write: see ``docs/performance.md``). The fields' own conversions (JSON, dates) apply as
    the ORM's. ``ignore_conflicts``: a row that breaks a unique constraint is skipped, as
    ``bulk_create(ignore_conflicts=True)`` does (the database's own words for it)."""
    model = type(rows[0])
    if (model, len(rows), ignore_conflicts) not in _STATEMENTS:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        quote = connection.ops.quote_name
        values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * len(rows))
        conflict = OnConflict.IGNORE if ignore_conflicts else None
        suffix = connection.ops.on_conflict_suffix_sql(fields, conflict, None, None)
        _STATEMENTS[(model, len(rows), ignore_conflicts)] = (
            f"{connection.ops.insert_statement(on_conflict=conflict)} {quote(model._meta.db_table)} "
            f"({', '.join(quote(f.column) for f in fields)}) VALUES {values}{' ' + suffix if suffix else ''}",
            fields)
    sql, fields = _STATEMENTS[(model, len(rows), ignore_conflicts)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(f.pre_save(row, True), connection) for row in rows for f in fields])

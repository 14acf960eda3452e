"""The writes of one game write in one round trip (issue 28): on PostgreSQL the statements a
move makes (its ``Move`` row, the seats, the outbox entry, the game, the idempotency record) are
sent together as one statement of data-modifying CTEs (``WITH w0 AS (INSERT ...), w1 AS
(UPDATE ...) SELECT ...``) instead of one round trip each. Under load every round trip to the
database waits for its process to be scheduled: a move's were most of its time.

``with writes.batched():`` collects; ``insert``, ``update`` and ``add`` queue a write while a
batch is open (and run it at once otherwise); the batch is flushed when the block ends, or
earlier with ``flush()``. The statements of one batch see the database as it was before any of
them (one snapshot), so nothing inside the block may read what an earlier write of the block
wrote: the callers only write there. Other databases (SQLite) run the writes one by one, in
order, when the batch is flushed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

from config import prepared

Returned = Callable[[Any], None]


@dataclass
class _Write:
    sql: str
    params: list[Any]
    returned: Returned | None  # called with the statement's RETURNING value (None: no row)


@dataclass
class _Batch:
    writes: list[_Write] = field(default_factory=list)


_batch: ContextVar[_Batch | None] = ContextVar("games_writes_batch", default=None)


@contextmanager
def batched() -> Iterator[None]:
    """Collect the writes of the block and send them together when it ends (not when it
    raises: the transaction rolls back anyway). Nested blocks join the outer batch."""
    if _batch.get() is not None:
        yield
        return
    token = _batch.set(_Batch())
    try:
        yield
        flush()
    finally:
        _batch.reset(token)


def add(sql: str, params: list[Any], returned: Returned | None = None) -> None:
    """One data-modifying statement; ``returned`` gets the one value of its ``RETURNING``
    clause (None when it returned no row: an ``ON CONFLICT DO NOTHING`` that did nothing)."""
    write = _Write(sql, params, returned)
    batch = _batch.get()
    if batch is None:
        _run_one(write)
    else:
        batch.writes.append(write)


def flush() -> None:
    """Send the writes collected so far."""
    batch = _batch.get()
    if batch is None or not batch.writes:
        return
    writes, batch.writes = batch.writes, []
    db = _connection()
    if db.vendor != "postgresql" or len(writes) == 1:
        for write in writes:
            _run_one(write)
        return
    parts, params, returning = [], [], []
    for number, write in enumerate(writes):
        parts.append(f"w{number} AS ({write.sql})")
        params.extend(write.params)
        if write.returned is not None:
            returning.append((number, write.returned))
    selected = ", ".join(f"(SELECT * FROM w{number})" for number, _ in returning) or "1"
    # Prepared: a move's statement has the same text every time (config/prepared.py).
    with prepared.cursor(db) as cursor:
        cursor.execute(f"WITH {', '.join(parts)} SELECT {selected}", params)
        row = cursor.fetchone()
    for (_number, returned), value in zip(returning, row or (), strict=False):
        returned(value)


def _connection() -> Any:
    """The connection itself: ``django.db.connection`` is a proxy that looks it up again (a
    thread-critical local) on every attribute, and every value written reads one or two."""
    return connections[DEFAULT_DB_ALIAS]


def _run_one(write: _Write) -> None:
    with _connection().cursor() as cursor:
        cursor.execute(write.sql, write.params)
        if write.returned is not None:
            row = cursor.fetchone()
            write.returned(row[0] if row else None)


def _quote(name: str) -> str:
    return _connection().ops.quote_name(name)


# The statement of each (model, fields, database vendor), built once per process: quoting and
# joining the column names cost a move ~0.3 ms of CPU on every write (issue 28).
_insert_sql: dict[tuple[type[Model], str], tuple[list[Any], str]] = {}
_update_sql: dict[tuple[type[Model], tuple[str, ...] | None, str], tuple[list[Any], str]] = {}


def insert(obj: Model) -> None:
    """``obj.save(force_insert=True)`` as one statement of the batch: the primary key is set
    when the batch is flushed (nothing in the batch may need it before)."""
    meta = obj._meta
    db = _connection()
    key = (type(obj), db.vendor)
    built = _insert_sql.get(key)
    if built is None:
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        columns = ", ".join(_quote(f.column) for f in fields)
        placeholders = ", ".join(["%s"] * len(fields))
        pk = meta.pk
        assert pk is not None
        built = _insert_sql[key] = (fields, (
            f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({placeholders})"
            f" RETURNING {_quote(pk.column)}"))
    fields, sql = built
    values = [f.get_db_prep_save(f.pre_save(obj, True), db) for f in fields]

    def returned(value: Any) -> None:
        obj.pk = value
        obj._state.adding = False
        obj._state.db = db.alias

    add(sql, values, returned)


def update(obj: Model, fields: list[str] | None = None) -> None:
    """``obj.save(update_fields=fields)`` (all fields when None) of a row known to exist, as
    one statement of the batch."""
    meta = obj._meta
    pk = meta.pk
    assert pk is not None
    db = _connection()
    key = (type(obj), None if fields is None else tuple(fields), db.vendor)
    built = _update_sql.get(key)
    if built is None:
        chosen = [
            f for f in meta.concrete_fields
            if not f.primary_key and (fields is None or f.name in fields or f.attname in fields)
        ]
        assignments = ", ".join(f"{_quote(f.column)} = %s" for f in chosen)
        built = _update_sql[key] = (chosen, (
            f"UPDATE {_quote(meta.db_table)} SET {assignments} WHERE {_quote(pk.column)} = %s"))
    chosen, sql = built
    values = [f.get_db_prep_save(f.pre_save(obj, False), db) for f in chosen]
    add(sql, [*values, pk.get_db_prep_value(obj.pk, db)])

"""PostgreSQL timestamps are read by psycopg's C loader (config/pg_loaders.py), with the values
Django's own loader gives: aware datetimes in UTC, whatever offset the text carried."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from config import pg_loaders

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

UTC = datetime.UTC


def _loader_class():
    from psycopg import adapters
    from psycopg.pq import Format

    oid = adapters.types["timestamptz"].oid
    with connection.cursor() as cursor:
        return cursor.cursor.adapters.get_loader(oid, Format.TEXT)


@pytest.mark.skipif(pg_loaders._c_loader() is None, reason="psycopg without its C implementation")
def test_the_connections_cursors_use_the_c_loader():
    connection.ensure_connection()
    assert _loader_class() is pg_loaders._c_loader()
    # Django's per-cursor check (create_cursor) finds the zone it wants and keeps it.
    assert _loader_class().timezone is connection.timezone is UTC


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-02 03:04:05.123456+02", datetime.datetime(2026, 1, 2, 1, 4, 5, 123456, UTC)),
        ("2026-07-01 00:00:00-09:30", datetime.datetime(2026, 7, 1, 9, 30, tzinfo=UTC)),
        ("1999-12-31 23:59:59.5+00", datetime.datetime(1999, 12, 31, 23, 59, 59, 500000, UTC)),
    ],
)
def test_values_are_aware_datetimes_in_utc(text, expected):
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz", [text])
        (value,) = cursor.fetchone()
    assert value == expected
    assert value.tzinfo is UTC


def test_a_model_reads_back_what_it_wrote(django_user_model):
    joined = datetime.datetime(2025, 3, 30, 1, 30, 0, 250, UTC)
    user = django_user_model.objects.create(username="clock", date_joined=joined)
    stored = django_user_model.objects.get(pk=user.pk).date_joined
    assert stored == joined
    assert stored.tzinfo is UTC
    assert stored.isoformat() == "2025-03-30T01:30:00.000250+00:00"

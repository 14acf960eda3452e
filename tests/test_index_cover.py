"""Every foreign key of the games tables leads an index (its lookups and the cascades of a
deletion stay indexed) after migration 0014 dropped the ones a composite index covers, and no
index of a game, a seat or a move is a prefix of another (each index is written by every row
it covers: a move writes these tables)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game, Move, Seat

pytestmark = pytest.mark.django_db


def _indexes(model) -> list[list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    return [info["columns"] for info in found.values()
            if (info["index"] or info["unique"] or info["primary_key"]) and info["columns"]]


@pytest.mark.parametrize("model", [Game, Seat, Move])
def test_every_foreign_key_leads_an_index(model):
    leading = {columns[0] for columns in _indexes(model)}
    keys = [f.column for f in model._meta.concrete_fields if f.is_relation]
    assert keys == [] or set(keys) <= leading, (keys, _indexes(model))


@pytest.mark.parametrize("model", [Game, Seat, Move])
def test_no_index_is_a_prefix_of_another(model):
    indexes = _indexes(model)
    for columns in indexes:
        for other in indexes:
            if other is not columns and len(other) > len(columns):
                assert other[: len(columns)] != columns, (columns, other)

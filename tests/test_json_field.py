"""``games.fields.FastJSONField`` (orjson) stores and reads exactly what ``models.JSONField``
(the standard library) did, falls back to it where orjson would differ, and is, to migrations,
the JSONField it stores as."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection, models, transaction

from games import fields
from games.models import Game

pytestmark = pytest.mark.django_db

VALUES = [
    {"board": [[None, 5], [7, None]], "rack": "05W", "scores": [10, -3], "ok": True},
    {"text": "Bänkchen “10” \u2028 \\ \" \n", "emoji": "🃏", "float": 0.1, "tiny": 1e-300},
    {"seed": 2**63 - 1, "negative": -(2**63), "unsigned": 2**64 - 1},
    {"long": 2**70, "very negative": -(2**63) - 5, "in a list": [10**30]},
    {1: "an int key", "nested": {2: [3, (4, 5)]}},  # json.dumps makes the keys str
    [],
    "just a string",
]


def _stored(value):
    game = Game.objects.create(seed=1, state=value)
    return Game.objects.get(pk=game.pk).state


@pytest.mark.parametrize("value", VALUES)
def test_what_is_read_back_is_what_the_standard_library_reads_back(value):
    expected = json.loads(json.dumps(value))
    read = _stored(value)
    assert read == expected
    # No int turned float (jsonb keeps keys in its own order, with either field).
    assert json.dumps(read, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_long_integers_keep_every_digit():
    read = _stored({"long": 2**70, "very negative": -(2**63) - 5})
    assert read == {"long": 2**70, "very negative": -(2**63) - 5}
    assert all(type(v) is int for v in read.values())


def test_what_json_refuses_is_still_refused():
    with pytest.raises(TypeError), transaction.atomic():
        Game.objects.create(seed=1, state={"when": datetime.datetime(2026, 12, 3)})


def test_dumps_gives_the_standard_librarys_json_value():
    for value in VALUES:
        assert json.loads(fields.dumps(value)) == json.loads(json.dumps(value))


def test_text_orjson_will_not_parse_goes_to_the_standard_library():
    field = fields.FastJSONField()
    assert field.from_db_value('{"n": NaN}', None, connection)["n"] != 0  # NaN
    assert field.from_db_value("not json", None, connection) == "not json"  # as JSONField


def test_migrations_see_a_plain_json_field():
    _, path, _, kwargs = fields.FastJSONField(default=dict).deconstruct()
    assert path == "django.db.models.JSONField"
    assert models.JSONField(**kwargs).deconstruct()[3] == kwargs


@pytest.mark.parametrize(("text", "long"), [
    ('{"seed": 9223372036854775807, "low": -922337203685477580}', False),
    ('{"id": "1234567890123456789", "ids": [1234567890123456789]}', False),
    ('{"n": 12345678901234567890}', True),  # 20 digits: maybe past 2**64 - 1
    ('[-1234567890123456789]', True),  # 19 after "-": maybe below -2**63
    ('{"pi": 3.14159265358979323846264}', True),  # harmless: parsed as before
])
def test_text_with_a_long_run_of_digits_is_read_by_the_standard_library(text, long):
    assert fields._maybe_past_64_bits(text.encode()) is long
    assert fields.FastJSONField().from_db_value(text, None, connection) == json.loads(text)

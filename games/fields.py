"""A JSON column read and written with orjson (issue 28: parsing and dumping a Crazy Eights
game's state with the standard library was an eighth of a move request's server CPU).

orjson gives the same JSON values for what the standard library encodes: str, int, float,
bool, None, lists, tuples and dicts with str keys (and their subclasses). Whatever orjson will
not take the way ``json.dumps`` would (an int key, an int past 64 bits, a date, a dataclass)
goes to ``json.dumps`` as before, which encodes it or raises as it always did. Text orjson will
not parse, and text with an integer it would read as a float (past 64 bits), goes to
``json.loads``. orjson writes three things otherwise: a UUID and an Enum that is not an int
or str (the standard library refused them) and a float NaN or infinity (as null; the standard
library wrote NaN, which PostgreSQL refused). These columns hold none of them: states, results
and moves hold no float, and DRF refuses to render an answer with a NaN before it is stored.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models

_ONLY_WHAT_JSON_DOES = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
# orjson reads an integer below -2**63 or above 2**64 - 1 as a float. Text with a run of digits
# that long goes to the standard library (a seed, below 2**63, takes at most 19 digits): digits
# become "0" and all else but "-" a space, and C's substring search looks for such a run (a
# regular expression took longer than parsing).
_DIGITS_AND_MINUS = bytes(
    ord("0") if b"0"[0] <= i <= b"9"[0] else i if i == b"-"[0] else ord(" ")
    for i in range(256)
)
_TWENTY_DIGITS = b"0" * 20
_MINUS_NINETEEN_DIGITS = b"-" + b"0" * 19


def _maybe_past_64_bits(text: bytes) -> bool:
    runs = text.translate(_DIGITS_AND_MINUS)
    return _TWENTY_DIGITS in runs or _MINUS_NINETEEN_DIGITS in runs


def dumps(value: Any) -> bytes | str:
    """``json.dumps(value)`` as compact UTF-8 bytes, by orjson where it gives the same value."""
    try:
        return orjson.dumps(value, option=_ONLY_WHAT_JSON_DOES)
    except TypeError:  # orjson.JSONEncodeError: let the standard library encode it or refuse
        return json.dumps(value)


class FastJSONField(models.JSONField):
    """``models.JSONField`` with orjson on the way in and out (only without a custom encoder
    or decoder, which are the standard library's)."""

    def deconstruct(self) -> Any:
        # To migrations this is the JSONField it stores as: the same column, nothing to alter
        # (SQLite would have rebuilt four tables to change the class name alone).
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if type(value) is str and self.decoder is None:
            try:
                text = value.encode()
                if not _maybe_past_64_bits(text):
                    return orjson.loads(text)
            except (orjson.JSONDecodeError, UnicodeEncodeError):
                pass  # the standard library's reading (it takes NaN and long integers)
        return super().from_db_value(value, expression, connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        adapted = super().get_db_prep_value(value, connection, prepared)
        # PostgreSQL's adaptation is psycopg's Jsonb wrapper with the standard library's dumps
        # (no custom encoder): the same wrapper, with ours. Elsewhere, text as before.
        if getattr(adapted, "dumps", None) is json.dumps:
            adapted.dumps = dumps
        return adapted

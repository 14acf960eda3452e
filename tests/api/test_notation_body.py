"""The move body ``{"move": notation, "expected_move_number": n}`` is read without the
serializers (games.api.inputs.read_notation_body): for every kind and many bodies, what it
reads is what the kind's form reads, and every body it does not take is left to the form."""

from __future__ import annotations

import pytest

from config.unknown_fields import mark_json
from games import kinds
from games.api import serializers as s

BODIES = [
    {"move": "g7=5 h7=5", "expected_move_number": 0},
    {"move": "  pass ", "expected_move_number": 7},
    {"move": "swap 3 5 *", "expected_move_number": 2**31 - 1},
    {"move": "7H", "expected_move_number": 12},
    {"move": "x" * 100, "expected_move_number": 1},
    {"move": "x" * 101, "expected_move_number": 1},  # the form's to read (and take)
    {"move": "x" * 201, "expected_move_number": 1},  # the form's to refuse
    {"move": "", "expected_move_number": 1},
    {"move": "   ", "expected_move_number": 1},
    {"move": "pass\x00", "expected_move_number": 1},
    {"move": "pässe", "expected_move_number": 1},
    {"move": "pass", "expected_move_number": -1},
    {"move": "pass", "expected_move_number": 2**31},
    {"move": "pass", "expected_move_number": True},
    {"move": "pass", "expected_move_number": 1.0},
    {"move": "pass", "expected_move_number": "1"},
    {"move": 5, "expected_move_number": 1},
    {"move": None, "expected_move_number": 1},
    {"move": "pass"},
    {"move": "pass", "expected_move_number": 1, "extra": 1},
    {"type": "pass", "expected_move_number": 1},
    {"move": "pass", "expected_move_number": None},
]


def _form_reads(kind, body):
    form = s.submit_move_input(kind)(data=mark_json(body))
    try:
        if not form.is_valid():
            return None
    except Exception:  # unknown fields: refused
        return None
    return s.move_of(form.validated_data), form.validated_data["expected_move_number"]


@pytest.mark.parametrize("kind", kinds.all_kinds(), ids=lambda k: k.name)
@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_fast_reading_is_the_forms_or_leaves_it_to_the_form(kind, body):
    fast = s.read_notation_body(kind, mark_json(body))
    if fast is not None:
        assert fast == _form_reads(kind, body)


@pytest.mark.parametrize("name", ["crazy10s", "crazy_eights"])
def test_the_common_body_is_read_fast(name):
    kind = kinds.get(name)
    assert s.read_notation_body(kind, mark_json(BODIES[1])) == ({"move": "pass"}, 7)
    assert s.read_notation_body(kind, mark_json(BODIES[7])) is None  # blank: the form says so


def test_a_kind_whose_form_reads_no_notation_is_left_to_its_form():
    others = [k for k in kinds.all_kinds() if k.name not in {"crazy10s", "crazy_eights"}]
    assert others, "the tests' extra kind (tictactoe) is registered"
    for kind in others:
        if _form_reads(kind, BODIES[1]) != ({"move": "pass"}, 7):
            assert s.read_notation_body(kind, mark_json(BODIES[1])) is None

"""The short paths of the output serializers render what DRF's own walk renders: the bonus
squares' list (games/crazy10s/serializers.py) and the compiled leaves (config/fast_render.py),
for the values they take and for those they leave to DRF."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework import serializers

from config import fast_render
from games.crazy10s import engine as c10s
from games.crazy10s.serializers import BonusSquareListSerializer, BonusSquareSerializer


def _drf_walk(data):
    """DRF's plain ListSerializer over the same child: what the short path replaces."""
    return serializers.ListSerializer(child=BonusSquareSerializer()).to_representation(data)


def _squares(layout: c10s.Layout) -> list[dict[str, str]]:
    # The engine's view lists them so (games/crazy10s/engine/view.py).
    return [{"square": name, "kind": kind} for name, kind in layout.bonus_squares()]


@pytest.mark.parametrize("layout", [
    c10s.classic_layout(13), c10s.classic_layout(11), c10s.random_layout(13, random.Random(7)),
])
def test_the_bonus_squares_render_as_drf_walks_them(layout):
    squares = _squares(layout)
    assert len(squares) > 20
    listed = BonusSquareSerializer(many=True)
    assert isinstance(listed, BonusSquareListSerializer)
    fast = listed.to_representation(squares)
    assert json.dumps(fast) == json.dumps(_drf_walk(squares))
    assert fast is not squares and all(a is not b for a, b in zip(fast, squares, strict=True))


def test_a_square_keeps_only_the_whitelisted_keys():
    squares = [{"square": "a1", "kind": "TN", "secret": "bag order"}]
    assert BonusSquareSerializer(many=True).to_representation(squares) == [
        {"square": "a1", "kind": "TN"}]


@pytest.mark.parametrize("squares", [
    [{"square": "a1", "kind": "??"}],  # not a kind of bonus square: DRF's choice passes it on
    [{"square": 7, "kind": "DN"}],  # not a string: DRF's CharField makes it one
    [{"square": "a1"}],  # a missing key: as DRF treats it
    [("a1", "DN")],
    ({"square": "a1", "kind": "DN"},),  # not a list
])
def test_anything_else_is_left_to_drf(squares):
    def outcome(render):
        try:
            return ("ok", json.dumps(render(squares)))
        except Exception as exc:  # the same refusal, whatever it is
            return ("error", type(exc).__name__)

    assert outcome(BonusSquareSerializer(many=True).to_representation) == outcome(_drf_walk)


@pytest.mark.parametrize("value", [True, False, 1, 0, "true", "False", "yes", None, "maybe", 2])
def test_a_compiled_boolean_renders_as_drf(value):
    field = serializers.BooleanField(allow_null=True)
    assert fast_render._leaf(field)(value) == field.to_representation(value)
    assert type(fast_render._leaf(field)(value)) is type(field.to_representation(value))

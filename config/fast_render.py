"""An output serializer's ``to_representation`` compiled once into plain functions over the
fields it declares (issue 28: DRF's per-field machinery was a tenth of a move request's CPU).

The serializer stays the whitelist and the schema: the compiled function walks exactly its
readable fields, reads each value as DRF does (``Field.get_attribute``: a missing key takes the
field's default, null, or leaves the field out) and converts it with the field's own
``to_representation``. Only the walking is done here, for the classes whose walking DRF does
itself (``Serializer``, ``ListSerializer``, ``ListField``, ``DictField``); a field or serializer
that overrides ``get_attribute`` or ``to_representation`` is asked itself, as DRF would.
tests/api/test_fast_render.py compares both renderings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db.models.manager import BaseManager
from rest_framework import fields, serializers
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject

Render = Callable[[Any], Any]
_BASE_GET_ATTRIBUTE = fields.Field.get_attribute


_compiled = threading.local()


def render(output: type[serializers.Serializer], instance: Any) -> dict[str, Any]:
    """``dict(output(instance).data)``, with one instance of ``output`` per thread, compiled
    (``compile_output``; a serializer deep-copies its declared fields for every new instance).
    For output serializers that use no context."""
    cached = getattr(_compiled, "by_class", None)
    if cached is None:
        cached = _compiled.by_class = {}
    compiled = cached.get(output)
    if compiled is None:
        compiled = cached[output] = compile_output(output())
    return dict(compiled(instance))


def compile_output(field: fields.Field) -> Render:
    """``field.to_representation`` as plain functions (``field`` is a bound serializer)."""
    cls = type(field)
    if (
        isinstance(field, serializers.ListSerializer)
        and cls.to_representation is serializers.ListSerializer.to_representation
    ):
        child = compile_output(field.child)  # type: ignore[arg-type]

        def render_list(data: Any) -> Any:
            items = data.all() if isinstance(data, BaseManager) else data
            return [child(item) for item in items]

        return render_list
    if (
        isinstance(field, serializers.Serializer)
        and cls.to_representation is serializers.Serializer.to_representation
    ):
        return _compile_serializer(field)
    if cls.to_representation is fields.ListField.to_representation:
        item = compile_output(field.child)  # type: ignore[attr-defined]
        return lambda data: [item(v) if v is not None else None for v in data]
    if cls.to_representation is fields.DictField.to_representation:
        value = compile_output(field.child)  # type: ignore[attr-defined]
        return lambda data: {
            str(k): value(v) if v is not None else None for k, v in data.items()
        }
    return _leaf(field)


def _leaf(field: fields.Field) -> Render:
    """``field.to_representation``, with DRF's own conversions of the commonest leaves skipped
    for a value that already is their result (exactly: ``str(s)`` of a str is ``s``, ``int(n)``
    of an int is ``n``, a bool is its own representation, and a choice's string maps to
    itself): rendering is most of what a game view's answer costs."""
    slow = field.to_representation
    to_representation = type(field).to_representation
    if to_representation is fields.CharField.to_representation:
        return lambda value: value if type(value) is str else slow(value)
    if to_representation is fields.IntegerField.to_representation:
        return lambda value: value if type(value) is int else slow(value)
    if to_representation is fields.BooleanField.to_representation:
        return lambda value: value if type(value) is bool else slow(value)
    if to_representation is fields.ChoiceField.to_representation:
        choice = field

        def render_choice(value: Any) -> Any:
            if type(value) is str:  # DRF: choice_strings_to_values.get(str(value), value)
                return choice.choice_strings_to_values.get(value, value)  # type: ignore[attr-defined]
            return slow(value)

        return render_choice
    return slow


def _compile_serializer(serializer: serializers.Serializer) -> Render:
    plan = [
        (str(field.field_name), _getter(field), compile_output(field))
        for field in serializer._readable_fields
    ]

    def render(instance: Any) -> dict[str, Any]:
        ret: dict[str, Any] = {}
        for name, get, convert in plan:
            try:
                attribute = get(instance)
            except SkipField:
                continue
            check = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            ret[name] = None if check is None else convert(attribute)
        return ret

    return render


def _getter(field: fields.Field) -> Callable[[Any], Any]:
    """``field.get_attribute``, with a short path for a dict holding the field's one key and
    a value that is not callable (DRF would call a callable: the field is asked then, as it is
    for a missing key, which takes the default, null, or ``SkipField``)."""
    slow = field.get_attribute
    if type(field).get_attribute is not _BASE_GET_ATTRIBUTE or len(field.source_attrs) != 1:
        return slow
    key = field.source_attrs[0]

    def get(instance: Any) -> Any:
        if type(instance) is dict:
            try:
                value = instance[key]
            except KeyError:
                return slow(instance)
            if not callable(value):
                return value
        return slow(instance)

    return get

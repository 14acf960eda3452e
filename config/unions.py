"""Request bodies that are one of several shapes, as generated clients type them exactly.

``TaggedUnion``: a body whose ``type`` names its shape (``{"type": "place", "tiles": [...]}`` |
``{"type": "pass"}``), each shape its own serializer with its own required fields; older,
untagged shapes (``{"move": "..."}``) stay accepted and documented beside them. The schema is
``oneOf`` [the tagged shapes, with a ``discriminator`` on ``type``; the untagged ones].

``UnionSchema``: the schema of a body chosen among whole serializers outside DRF (the games'
creation forms, one move form per kind): tagged ones discriminated by a field, untagged ones
beside them, as ``oneOf`` — or ``anyOf`` where one body may fit several (a pass is a pass in
more than one game).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers


class TaggedUnion(serializers.Serializer):
    """Subclasses set ``variants`` (tag value -> serializer; each declares the tag field as a
    choice of its one value) and ``untagged`` (older shapes, tried in order)."""

    tag: ClassVar[str] = "type"
    variants: ClassVar[dict[str, type[serializers.Serializer]]] = {}
    untagged: ClassVar[tuple[type[serializers.Serializer], ...]] = ()

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise serializers.ValidationError(
                {"non_field_errors": [_("Invalid data. Expected an object.")]}
            )
        if self.tag in data or not self.untagged:
            value = data.get(self.tag)
            variant = self.variants.get(value) if isinstance(value, str) else None
            if variant is None:
                raise serializers.ValidationError(
                    {self.tag: [_("One of %(choices)s.") % {"choices": list(self.variants)}]}
                )
            return self._read(variant, data)
        return self._read(self._closest_shape(data), data)

    def _closest_shape(self, data: Mapping[str, Any]) -> type[serializers.Serializer]:
        """The older shape that takes every field of ``data``, else the one that knows most of
        them (its refusal then names what is wrong, an unknown field included)."""
        shared = set.intersection(*(set(s._declared_fields) for s in self.untagged))
        keys = set(data) - shared  # what every shape takes tells them not apart
        known = [(keys & set(shape._declared_fields), shape) for shape in self.untagged]
        whole = [shape for fields, shape in known if fields == keys]
        if whole:
            return whole[0]
        if sum(1 for fields, _shape in known if fields) > 1:  # fields of different shapes
            raise serializers.ValidationError(
                {"non_field_errors": [_("These fields do not go together: %(fields)s.")
                                      % {"fields": ", ".join(sorted(keys))}]}
            )
        return max(known, key=lambda pair: len(pair[0]))[1]

    def _read(self, variant: type[serializers.Serializer], data: Any) -> dict[str, Any]:
        form = variant(data=data, context=self.context)
        form.is_valid(raise_exception=True)
        return dict(form.validated_data)

    @classmethod
    def with_fields(cls, prefix: str, **fields: serializers.Field) -> type[TaggedUnion]:
        """The same union with ``fields`` added to every shape (``expected_move_number``),
        each class named with ``prefix`` ("Submit": ``SubmitCrazy10sPlaceMove``)."""

        def extended(shape: type[serializers.Serializer]) -> type[serializers.Serializer]:
            return type(f"{prefix}{shape.__name__}", (shape,), copy.deepcopy(fields))

        return type(f"{prefix}{cls.__name__}", (cls,), {
            "variants": {tag: extended(shape) for tag, shape in cls.variants.items()},
            "untagged": tuple(extended(shape) for shape in cls.untagged),
        })


def tag_field(value: str, help_text: str = "") -> serializers.ChoiceField:
    """A variant's tag: its one value, required."""
    return serializers.ChoiceField(choices=(value,), help_text=help_text or f'"{value}"')


class UnionSchema(serializers.Serializer):
    """A schema-only serializer: ``UnionSchema(component_name=..., tagged=..., tag=...,
    untagged=..., any_of=...)``."""

    def __init__(self, *, component_name: str, tagged: dict[str, Any] | None = None,
                 tag: str = "type", untagged: list[Any] | None = None, any_of: bool = False,
                 **kwargs: Any) -> None:
        self.component_name = component_name
        self.tagged = tagged or {}
        self.tag = tag
        self.untagged = untagged or []
        self.any_of = any_of
        super().__init__(**kwargs)


def _union(auto_schema: Any, direction: str, tagged: dict[str, Any], tag: str,
           untagged: list[Any], any_of: bool) -> dict[str, Any]:
    """``oneOf`` (or ``anyOf``) [the tagged members under a discriminator; the untagged]."""
    branches: list[dict[str, Any]] = []
    if tagged:
        refs = {value: _ref(auto_schema, member, direction) for value, member in tagged.items()}
        branches.append({
            "oneOf": [{"$ref": ref} for ref in dict.fromkeys(r["$ref"] for r in refs.values())],
            "discriminator": {
                "propertyName": tag, "mapping": {v: r["$ref"] for v, r in refs.items()}
            },
        })
    branches += [_ref(auto_schema, member, direction) for member in untagged]
    if len(branches) == 1:
        return branches[0]
    return {"anyOf" if any_of else "oneOf": branches}


def _ref(auto_schema: Any, member: Any, direction: str) -> dict[str, str]:
    if isinstance(member, UnionSchema):
        return _component(auto_schema, member, direction)
    if isinstance(member, type):
        member = member()
    return auto_schema.resolve_serializer(member, direction).ref


def _component(auto_schema: Any, union: UnionSchema, direction: str) -> dict[str, str]:
    """A union nested in another: its own component."""
    schema = _union(auto_schema, direction, union.tagged, union.tag, union.untagged,
                    union.any_of)
    name = union.component_name + ("Request" if direction == "request" else "")
    component = ResolvedComponent(
        name=name, type=ResolvedComponent.SCHEMA, object=union.component_name, schema=schema
    )
    auto_schema.registry.register_on_missing(component)
    return component.ref


class TaggedUnionExtension(OpenApiSerializerExtension):
    target_class = TaggedUnion
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        union: type[TaggedUnion] = (
            self.target if isinstance(self.target, type) else type(self.target)
        )
        return _union(auto_schema, direction, union.variants, union.tag,
                      list(union.untagged), any_of=False)


class UnionSchemaExtension(OpenApiSerializerExtension):
    target_class = UnionSchema

    def get_name(self, auto_schema: Any, direction: str) -> str | None:
        return self.target.component_name

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        union = self.target
        return _union(auto_schema, direction, union.tagged, union.tag, union.untagged,
                      union.any_of)

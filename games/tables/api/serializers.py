"""Input and output of the tables API (output serializers are whitelists). A table's options
are its kind's own (``GameKind.table.options_input``): one creation form per kind with
tables, plus the first form (the default table kind's options at the top level)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config.fields import StrictCharField, StrictChoiceField
from games.kinds.base import GameKind
from games.tables.services import table_kinds


def _camel(kind: GameKind) -> str:
    return "".join(part[:1].upper() + part[1:] for part in kind.name.split("_"))


class CreateTableBase(serializers.Serializer):
    kind_name: str = ""

    def creation(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data.pop("kind", None)
        options = data.pop("options", data)
        return {"kind": self.kind_name, "options": options}


@cache
def create_table_input(kind: GameKind) -> type[CreateTableBase]:
    """``{"kind", "options": {...}}`` for a kind with tables."""
    assert kind.table is not None
    return type(f"Create{_camel(kind)}TableInput", (CreateTableBase,), {
        "kind": StrictChoiceField(choices=(kind.name,)),
        "options": kind.table.options_input(help_text="what the host chooses"),
        "kind_name": kind.name,
    })


@cache
def first_create_table_input() -> type[CreateTableBase] | None:
    """The first form of the API (still accepted): the default table kind's options at the
    top level, without ``kind``."""
    offered = table_kinds()
    if not offered:
        return None
    kind = offered[0]
    assert kind.table is not None
    fields = copy.deepcopy(kind.table.options_input._declared_fields)
    return type("CreateTableInput", (CreateTableBase,), {**fields, "kind_name": kind.name})


def create_table_input_for(data: Any) -> type[CreateTableBase]:
    """A body with ``kind`` or ``options`` is read with its kind's form (the default table
    kind's without a known kind), any other with the first form."""
    offered = {k.name: k for k in table_kinds()}
    if isinstance(data, dict) and ("kind" in data or "options" in data):
        name = data.get("kind")
        kind = offered.get(name) if isinstance(name, str) else None
        return create_table_input(kind or table_kinds()[0])
    form = first_create_table_input()
    assert form is not None
    return form


def create_table_request() -> PolymorphicProxySerializer:
    forms: list[type] = [create_table_input(k) for k in table_kinds()]
    first = first_create_table_input()
    if first is not None:
        forms.append(first)
    return PolymorphicProxySerializer(
        component_name="CreateTable", serializers=forms, resource_type_field_name=None
    )


class InviteInput(serializers.Serializer):
    username = StrictCharField(max_length=150)


class TableSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="null: a free seat")
    username = serializers.CharField(allow_null=True)
    is_computer = serializers.BooleanField()
    away = serializers.BooleanField(help_text="the computer plays this seat meanwhile")
    left = serializers.BooleanField(help_text="the person left; joining again takes it back")


class TableOutput(serializers.Serializer):
    code = serializers.CharField()
    share_url = serializers.CharField()
    status = serializers.CharField(help_text="open, dealt or closed")
    host = serializers.CharField(help_text="the host's username")
    kind = serializers.CharField(help_text="the game the table deals")
    title = serializers.CharField(help_text="its name, in your language")
    options = serializers.DictField(help_text="what the host chose (the kind's table options)")
    house_rules = serializers.ListField(
        child=serializers.CharField(), help_text="the options in words, in your language"
    )
    seats = TableSeatOutput(many=True)
    turn_seconds = serializers.IntegerField()
    game_id = serializers.IntegerField(allow_null=True, help_text="set once the cards are dealt")
    game_status = serializers.CharField(allow_null=True)

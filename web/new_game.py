"""The new-game page's forms: one per registered kind, all alike (who sits in each other seat,
the time per turn, rated or not) plus the kind's own options (its ``web.new_game_options``
fragment, fields named ``options.<name>``), and a table form for every kind with tables.

A posted form becomes the API's creation body (``kind``, ``seats``, ``turn_hours``, ``rated``,
``options``) and goes through the same input serializer and service as ``POST /games``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework import serializers

from games import kinds
from games.api.serializers import create_input
from games.kinds.base import GameKind

FRIEND, RANDOM = "@friend", "@random"


def seats_of(kind: GameKind) -> range:
    """The other seats a player fills in (seat 0 is theirs)."""
    return range(1, kind.seats.stop - 1)


def _seat_label(kind: GameKind, n: int) -> str:
    if kind.seats.stop - 1 == 2:
        return _("Opponent")
    return _("Player %(n)s") % {"n": n + 1}


def choices_of(form: type[serializers.Serializer] | None) -> dict[str, list[Any]]:
    """The choices of every choice field of an options form, by path with underscores
    ("rules_target"), for the kind's fragment to list."""
    found: dict[str, list[Any]] = {}

    def walk(fields: Mapping[str, serializers.Field], prefix: str) -> None:
        for name, field in fields.items():
            if isinstance(field, serializers.Serializer):
                walk(field.fields, f"{prefix}{name}_")
            elif isinstance(field, serializers.ChoiceField):
                found[f"{prefix}{name}"] = list(field.choices)

    if form is not None:
        walk(form().fields, "")
    return found


def form_of(kind: GameKind, values: dict[str, str] | None = None,
            errors: list[str] | None = None) -> dict[str, Any]:
    """What the template needs to draw ``kind``'s form (``values``: what was posted)."""
    values = values or {}
    return {
        "kind": kind,
        "title": str(kind.title),
        "computer_players": str(kind.computer_players),
        "errors": errors or [],
        "levels": kind.computer_levels(),
        "seats": [
            {
                "n": n,
                "label": _seat_label(kind, n),
                "optional": n >= kind.seats.start,
                "value": values.get(f"seat{n}", "" if n >= kind.seats.start
                                    else (kind.levels[0] if kind.levels else FRIEND)),
                "username": values.get(f"username{n}", ""),
            }
            for n in seats_of(kind)
        ],
        "turn_hours": values.get("turn_hours", "72"),
        "rated": bool(values.get("rated", "true")) if values else True,
        "options": kind.web.new_game_options,
        "option_choices": choices_of(kind.options_input),
        "table_choices": choices_of(kind.table.options_input if kind.table else None),
        "table_options": kind.web.table_options if kind.table is not None else None,
        # What was posted of the kind's options, for its fragment (dots become underscores:
        # "options.rules.actions" is option_values.rules_actions); None before a post.
        "option_values": {
            key.removeprefix("options.").replace(".", "_"): value
            for key, value in values.items() if key.startswith("options.")
        } if values else None,
    }


def forms(posted_kind: str | None = None, values: dict[str, str] | None = None,
          errors: list[str] | None = None) -> list[dict[str, Any]]:
    return [
        form_of(k, values, errors) if k.name == posted_kind else form_of(k)
        for k in kinds.all_kinds()
    ]


def _options(post: QueryDict) -> QueryDict:
    """The ``options.*`` fields without their prefix: the kind's options form reads them as a
    form (text values, nested fields by dotted names, an unticked box as false)."""
    options = QueryDict(mutable=True)
    for key in post:
        if key.startswith("options."):
            options.setlist(key.removeprefix("options."), post.getlist(key))
    return options


def creation(kind: GameKind, post: QueryDict, options: dict[str, Any]) -> dict[str, Any]:
    """The API's creation body from a posted form and its validated ``options``."""
    seats: list[dict[str, Any]] = [{"you": True}]
    for n in seats_of(kind):
        choice = post.get(f"seat{n}", "")
        if choice == FRIEND:
            seats.append({"username": post.get(f"username{n}", "").strip()})
        elif choice == RANDOM:
            seats.append({"random": True})
        elif choice:
            seats.append({"computer": choice})
    hours = post.get("turn_hours", "72")
    return {
        "kind": kind.name,
        "seats": seats,
        "turn_hours": int(hours) if hours.isdigit() else hours,
        "rated": bool(post.get("rated")),  # a ticked box, whatever its value
        "options": options,
    }


def validated(kind: GameKind, post: QueryDict) -> dict[str, Any]:
    """The creation body of a posted form, or ValidationError with every problem of it (the
    options read as a form, the rest by the API's own input)."""
    options = kind.options_input(data=_options(post))
    options_valid = options.is_valid()
    data = create_input(kind)(data=creation(kind, post, options.validated_data if options_valid
                                            else {}))
    if data.is_valid() and options_valid:
        return data.creation()
    errors = dict(data.errors)
    if not options_valid:
        errors["options"] = options.errors
    raise serializers.ValidationError(errors)


TURN_HOURS = tuple(
    cast(serializers.ChoiceField, create_input(kinds.default())().fields["turn_hours"]).choices
)

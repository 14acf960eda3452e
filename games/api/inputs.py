"""Request bodies of the games API: creating a game (one form per kind, plus the two older
shapes that keep working) and playing or previewing a move (the game's kind's own input).

Every creation form answers the same thing, ``creation()``: the arguments of
``games.services.create_game`` (kind, seats, options, turn_hours, rated).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from config.schema import CrossFieldRules
from config.unions import TaggedUnion
from games import kinds
from games.kinds.base import GameKind
from games.models import TURN_HOURS_CHOICES

SEAT_KEYS = ("you", "computer", "username", "random")
RATED_HELP = (
    "a game between people changes their ratings (computer games never do); random pairing "
    "only pairs requests with the same choice"
)


def _class_name(kind: GameKind, suffix: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in kind.name.split("_")) + suffix


# --- creating a game ------------------------------------------------------------------------
class SeatInputSerializer(serializers.Serializer):
    """One seat of a new game: exactly one of the four keys."""

    you = StrictBooleanField(required=False, help_text="true: you sit here")
    computer = StrictCharField(required=False, max_length=32, help_text="a computer level")
    username = StrictCharField(required=False, max_length=150, help_text="a player by name")
    random = StrictBooleanField(required=False, help_text="true: a random opponent")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(
                _('A seat is one of {"you": true}, {"computer": LEVEL}, {"username": NAME} '
                  'or {"random": true}.')
            )
        for key in ("you", "random"):
            if key in attrs and attrs[key] is not True:
                raise serializers.ValidationError({key: [_("Only true is allowed here.")]})
        return attrs


@cache
def seat_input(kind: GameKind) -> type[serializers.Serializer]:
    """The seat form of ``kind``: its own computer levels."""
    fields = copy.deepcopy(SeatInputSerializer._declared_fields)
    fields["computer"] = StrictChoiceField(
        choices=kind.levels, required=False, help_text="a computer level of this game"
    )
    return type(_class_name(kind, "SeatInputSerializer"), (SeatInputSerializer,), fields)


class CreateGameBase(serializers.Serializer):
    """The fields every kind's creation form shares."""

    turn_hours = StrictChoiceField(choices=TURN_HOURS_CHOICES, default=72)
    rated = StrictBooleanField(default=True, help_text=RATED_HELP)

    kind_name: str = ""

    def creation(self) -> dict[str, Any]:
        data = self.validated_data
        return {
            "kind": self.kind_name,
            "seats": [dict(seat) for seat in data["seats"]],
            "options": _plain(data.get("options", {})),
            "turn_hours": data["turn_hours"],
            "rated": data["rated"],
        }


@cache
def create_input(kind: GameKind) -> type[CreateGameBase]:
    """``{"kind", "seats": [...], "turn_hours", "rated", "options": {...}}`` for ``kind``:
    the seats in order (one of them you), the kind's own options."""
    seats = kind.seats
    fields = {
        "kind": StrictChoiceField(choices=(kind.name,)),
        # drf-stubs lack the list's min_length/max_length that DRF takes with many=True.
        "seats": seat_input(kind)(  # type: ignore[call-arg]
            many=True, min_length=seats.start, max_length=seats.stop - 1,
            help_text=f"every seat in order ({seats.start} to {seats.stop - 1}), one of them "
            '{"you": true}',
        ),
        "options": kind.options_input(required=False, help_text="this game's own options"),
        "kind_name": kind.name,
    }
    return type(_class_name(kind, "CreateGameInputSerializer"), (CreateGameBase,), fields)


class OpponentInputSerializer(serializers.Serializer):
    ai = StrictCharField(max_length=32, required=False, help_text="a computer level")
    username = StrictCharField(max_length=150, required=False)
    random = StrictBooleanField(required=False, help_text="true (a JSON boolean)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(
                _('Give exactly one of {"ai": LEVEL}, {"username": NAME} or {"random": true}.')
            )
        if "random" in attrs and attrs["random"] is not True:
            raise serializers.ValidationError(_('Use {"random": true} for a random opponent.'))
        return attrs


def _v1_input() -> type[CreateGameBase]:
    """The first API's body, kept for older clients: a two-seat game of the default kind
    against one ``opponent``, with the default kind's options at the top level."""
    kind = kinds.default()
    opponent = type(
        "OpponentInputSerializer", (OpponentInputSerializer,),
        {"ai": StrictChoiceField(choices=kind.levels, required=False)},
    )

    def creation(self: CreateGameBase) -> dict[str, Any]:
        data = dict(self.validated_data)
        who = data.pop("opponent")
        seat = {"computer": who["ai"]} if "ai" in who else dict(who)
        options = {name: data.pop(name) for name in kind.options_input._declared_fields
                   if name in data}
        return {
            "kind": kind.name,
            "seats": [{"you": True}, seat],
            "options": _plain(options),
            "turn_hours": data["turn_hours"],
            "rated": data["rated"],
        }

    fields = {
        "__doc__": f"The first API's body (still accepted): a game of {kind.name} against one "
        "opponent.",
        "kind": StrictChoiceField(choices=(kind.name,), default=kind.name),
        "opponent": opponent(),
        **copy.deepcopy(kind.options_input._declared_fields),
        "creation": creation,
        "kind_name": kind.name,
    }
    return type("CreateGameInputSerializer", (CreateGameBase,), fields)


@cache
def opponents_input(kind: GameKind) -> type[CreateGameBase]:
    """The older body of a kind with more seats, kept for older clients: you against 1…
    computer ``opponents``, with the kind's options at the top level."""
    seats = kind.seats

    def creation(self: CreateGameBase) -> dict[str, Any]:
        data = dict(self.validated_data)
        levels = data.pop("opponents")
        options = {name: data.pop(name) for name in kind.options_input._declared_fields
                   if name in data}
        return {
            "kind": kind.name,
            "seats": [{"you": True}, *({"computer": level} for level in levels)],
            "options": _plain(options),
            "turn_hours": data["turn_hours"],
            "rated": False,
        }

    fields = {
        "kind": StrictChoiceField(choices=(kind.name,)),
        "opponents": serializers.ListField(
            child=StrictChoiceField(choices=kind.levels),
            min_length=seats.start - 1,
            max_length=seats.stop - 2,
            help_text="the computer players of the other seats (older body: use seats)",
        ),
        **copy.deepcopy(kind.options_input._declared_fields),
        "creation": creation,
        "kind_name": kind.name,
    }
    return type(_class_name(kind, "OpponentsInputSerializer"), (CreateGameBase,), fields)


CreateGameInputSerializer = _v1_input()


def older_create_inputs() -> list[type[CreateGameBase]]:
    """The older creation bodies, still taken: the first API's, and each bigger kind's list of
    computer ``opponents``."""
    return [CreateGameInputSerializer,
            *(opponents_input(k) for k in kinds.all_kinds() if k.seats.stop > 3)]


def create_input_for(data: Any) -> type[CreateGameBase]:
    """The form a body is read with: ``seats`` → its kind's (the default kind without one);
    ``opponents`` → the older form of a kind with more seats; else the first API's."""
    if not isinstance(data, dict):
        return CreateGameInputSerializer
    name = data.get("kind")
    kind = kinds.get(name) if isinstance(name, str) and name in kinds.names() else None
    if "seats" in data:
        return create_input(kind or kinds.default())
    if "opponents" in data and kind is not None and kind.seats.stop > 3:
        return opponents_input(kind)
    if kind is not None and kind is not kinds.default() and "opponent" not in data:
        return create_input(kind)  # names the kind: its form says what is missing
    return CreateGameInputSerializer


def _plain(value: Any) -> Any:
    """Validated data (OrderedDicts, nested) as plain JSON-able dicts and lists."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


# --- moves --------------------------------------------------------------------------------
EXPECTED_MOVE_NUMBER_HELP = "move_number of the view the move was chosen on (moves played so far)"


MAX_MOVE_NUMBER = 2**31 - 1  # expected_move_number's bound (a 32-bit integer column)


@cache
def submit_move_input(kind: GameKind) -> type[serializers.Serializer]:
    """``kind``'s move body plus ``expected_move_number`` (in each shape of a tagged union)."""
    expected = StrictIntegerField(
        min_value=0, max_value=MAX_MOVE_NUMBER, help_text=EXPECTED_MOVE_NUMBER_HELP
    )
    if issubclass(kind.move_input, TaggedUnion):
        return kind.move_input.with_fields("Submit", expected_move_number=expected)
    return type(
        _class_name(kind, "SubmitMoveInputSerializer"),
        (kind.move_input,),
        {"expected_move_number": expected},
    )


# The longest notation the fast reading takes (every kind's form takes 200; longer bodies go
# through the form, which may refuse them).
_FAST_NOTATION_LENGTH = 100
_FAST_PROBE = "x" * _FAST_NOTATION_LENGTH


@cache
def _reads_notation_plainly(kind: GameKind) -> bool:
    """Whether ``kind``'s submit form makes of ``{"move": text, "expected_move_number": n}``
    exactly the text (stripped) and n: asked of the form itself, once per kind."""
    from config.unknown_fields import mark_json

    form = submit_move_input(kind)(
        data=mark_json({"move": f" {_FAST_PROBE} ", "expected_move_number": MAX_MOVE_NUMBER}))
    try:
        valid = form.is_valid()
    except Exception:  # a form that refuses the shape outright (unknown fields)
        return False
    return valid and dict(form.validated_data) == {
        "move": _FAST_PROBE, "expected_move_number": MAX_MOVE_NUMBER}


def read_notation_body(kind: GameKind, data: Any) -> tuple[dict[str, Any], int] | None:
    """The move and expected move number of the common body ``{"move": notation,
    "expected_move_number": n}`` without the serializers (~0.3 ms of a move request): what
    the kind's form would make of it, or None for any other body, which the form reads
    (tests/api/test_notation_body.py compares both on many bodies)."""
    if not isinstance(data, dict) or data.keys() != {"move", "expected_move_number"}:
        return None
    move, expected = data["move"], data["expected_move_number"]
    if type(move) is not str or type(expected) is not int:
        return None
    move = move.strip()
    if not (move and len(move) <= _FAST_NOTATION_LENGTH and move.isascii() and move.isprintable()
            and 0 <= expected <= MAX_MOVE_NUMBER):
        return None
    if not _reads_notation_plainly(kind):
        return None
    return {"move": move}, expected


def move_of(validated: dict[str, Any]) -> dict[str, Any]:
    """The move itself from a submitted body's validated data (plain JSON)."""
    return _plain({k: v for k, v in validated.items() if k != "expected_move_number"})


# --- queries --------------------------------------------------------------------------------
class QueryChoiceField(serializers.ChoiceField):
    """``?status=`` is refused like any other value that is not a choice (DRF would read an
    empty form value as "not given", which the schema's enum does not allow)."""

    def get_value(self, dictionary):
        if dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)


class GameListQuerySerializer(serializers.Serializer):
    status = QueryChoiceField(choices=("active", "waiting", "finished"), required=False)


class KindQuerySerializer(serializers.Serializer):
    kind = QueryChoiceField(choices=kinds.names(), required=False)


# --- schema: the rules validate() enforces across fields (config.schema.CrossFieldRules) -
class SeatRules(CrossFieldRules):
    target_class = SeatInputSerializer
    match_subclasses = True
    rules = {"oneOf": [{"required": [key]} for key in SEAT_KEYS]}
    properties = {"you": {"enum": [True]}, "random": {"enum": [True]}}


class OpponentRules(CrossFieldRules):
    target_class = OpponentInputSerializer
    match_subclasses = True
    rules = {"oneOf": [{"required": ["ai"]}, {"required": ["username"]}, {"required": ["random"]}]}
    properties = {"random": {"enum": [True]}}

"""Crazy10s's part of the API: options of a new game, the move input (notation or placed
tiles) and the ``position`` of a game view. Output serializers are whitelists."""

from typing import Any

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from config.schema import CrossFieldRules
from config.unions import TaggedUnion, tag_field

LAYOUTS = ("classic", "random")


# --- input ----------------------------------------------------------------------------------
class Crazy10sOptionsSerializer(serializers.Serializer):
    layout = StrictChoiceField(choices=LAYOUTS, default="classic")


class PlacedTileInputSerializer(serializers.Serializer):
    square = StrictCharField(max_length=3, help_text="e.g. g7")
    digit = StrictIntegerField(
        min_value=0, max_value=9, required=False, allow_null=True,
        help_text="The digit laid (for a wild: the digit it stands for).",
    )
    wild = StrictBooleanField(default=False)

    def validate(self, attrs):
        # A wild may leave its digit to the notation's rules; a plain tile is nothing without it.
        if not attrs.get("wild") and attrs.get("digit") is None:
            raise serializers.ValidationError(
                {"digit": [self.fields["digit"].error_messages["required"]]}
            )
        return attrs


RACK_TILES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*")


class Crazy10sPlaceMoveSerializer(serializers.Serializer):
    type = tag_field("place", '"place": lay tiles on the board')
    # drf-stubs lack the list's max_length that DRF takes with many=True.
    tiles = PlacedTileInputSerializer(  # type: ignore[call-arg]
        many=True, allow_empty=False, max_length=20
    )


class Crazy10sPassMoveSerializer(serializers.Serializer):
    type = tag_field("pass", '"pass": lay nothing this turn')


class Crazy10sSwapMoveSerializer(serializers.Serializer):
    type = tag_field("swap", '"swap": put tiles back in the bag and draw as many')
    tiles = serializers.ListField(
        child=StrictChoiceField(choices=RACK_TILES), min_length=1, max_length=7,
        help_text='the rack tiles to swap: "0"-"9", "*" for a wild',
    )


class Crazy10sNotationMoveSerializer(serializers.Serializer):
    """The first API's move: its notation."""

    move = StrictCharField(max_length=200, help_text='"g7=3 h7=*7", "pass" or "swap 3 5 *"')


class Crazy10sTilesMoveSerializer(serializers.Serializer):
    """The first API's placement: the tiles without a type."""

    # drf-stubs lack the list's max_length that DRF takes with many=True.
    tiles = PlacedTileInputSerializer(  # type: ignore[call-arg]
        many=True, allow_empty=False, max_length=20
    )


class Crazy10sMoveSerializer(TaggedUnion):
    """A Crazy10s move: ``{"type": "place", "tiles": [...]}``, ``{"type": "pass"}`` or
    ``{"type": "swap", "tiles": [...]}``; the first API's ``{"move": notation}`` and
    ``{"tiles": [...]}`` are still taken."""

    variants = {
        "place": Crazy10sPlaceMoveSerializer,
        "pass": Crazy10sPassMoveSerializer,
        "swap": Crazy10sSwapMoveSerializer,
    }
    untagged = (Crazy10sNotationMoveSerializer, Crazy10sTilesMoveSerializer)


# --- schema: the rules validate() enforces across fields (config.schema.CrossFieldRules) -


class PlacedTileRules(CrossFieldRules):
    target_class = PlacedTileInputSerializer
    # A plain tile needs its digit; a wild may leave it to the notation's rules.
    rules = {
        "anyOf": [
            {"required": ["wild"], "properties": {"wild": {"enum": [True]}}},
            {"required": ["digit"],
             "properties": {"digit": {"type": "integer", "nullable": False}}},
        ]
    }


# --- output ---------------------------------------------------------------------------------
BONUS_KINDS = ("DN", "TN", "DL", "TL", "★")
_BONUS_KIND_SET = frozenset(BONUS_KINDS)


class BonusSquareListSerializer(serializers.ListSerializer):
    """A layout's ~100 bonus squares, listed twice in every move's answer (the position and
    the first API's top-level fields): walking each square's two fields through the child was
    three quarters of rendering that answer (issue 28). The engine gives a list of dicts of
    two strings, which DRF's walk would return unchanged: those two keys are copied (the
    whitelist; tests/api/test_output_shortcuts.py compares it with DRF's walk, so a field
    added to the child fails there). Anything else is left to DRF."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        if type(data) is not list:
            return super().to_representation(data)
        squares = []
        for item in data:
            if type(item) is not dict:
                return super().to_representation(data)
            square, kind = item.get("square"), item.get("kind")
            if type(square) is not str or type(kind) is not str or kind not in _BONUS_KIND_SET:
                return super().to_representation(data)
            squares.append({"square": square, "kind": kind})
        return squares


class BonusSquareSerializer(serializers.Serializer):
    square = serializers.CharField()
    kind = serializers.ChoiceField(choices=BONUS_KINDS)

    class Meta:
        list_serializer_class = BonusSquareListSerializer


class LineSerializer(serializers.Serializer):
    direction = serializers.ChoiceField(choices=("across", "down"))
    start = serializers.CharField()
    end = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField())
    score = serializers.IntegerField()


class Crazy10sPositionSerializer(serializers.Serializer):
    """The Crazy10s ``position`` of a game view: what the seat may see of the board and racks."""

    layout = serializers.ChoiceField(choices=LAYOUTS)
    board = serializers.ListField(
        child=serializers.CharField(), help_text="rows top to bottom, '.' empty, digits tiles"
    )
    bonus_squares = BonusSquareSerializer(many=True)
    rack = serializers.ListField(child=serializers.CharField(), help_text='"0"-"9" or "*"')
    bag_size = serializers.IntegerField()
    scoreless_turns = serializers.IntegerField()
    final_racks = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="every seat's rack (by seat index), once the game is over",
    )


class Crazy10sMoveFactsSerializer(serializers.Serializer):
    """What every player sees of a played move beside its notation and score."""

    lines = LineSerializer(many=True, default=list, help_text="the lines it scored")
    drawn = serializers.IntegerField(default=0, help_text="how many tiles the mover drew")


class Crazy10sOwnMoveSerializer(serializers.Serializer):
    """The mover's own answer to a played move."""

    lines = LineSerializer(many=True, default=list, help_text="the lines it scored")
    drawn = serializers.ListField(
        child=serializers.CharField(), default=list, help_text="the tiles you drew"
    )


class PreviewLinesSerializer(serializers.Serializer):
    lines = LineSerializer(many=True, default=list, help_text="the lines it would score")


class BonusKindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    text = serializers.CharField()


class HowToPlayBonusSerializer(serializers.Serializer):
    bonus_kinds = BonusKindSerializer(many=True)
    bonus_squares = BonusSquareSerializer(many=True, help_text="this game's bonus squares")


class FinalRacksSerializer(serializers.Serializer):
    you = serializers.ListField(child=serializers.CharField())
    opponent = serializers.ListField(child=serializers.CharField())


class V1ViewSerializer(serializers.Serializer):
    """The first API's top-level fields of a game view, kept for its clients."""

    layout = serializers.ChoiceField(choices=LAYOUTS)
    board = serializers.ListField(
        child=serializers.CharField(), help_text="rows top to bottom, '.' empty, digits tiles"
    )
    bonus_squares = BonusSquareSerializer(many=True)
    rack = serializers.ListField(child=serializers.CharField(), help_text='"0"-"9" or "*"')
    bag_size = serializers.IntegerField()
    scoreless_turns = serializers.IntegerField()
    final_racks = FinalRacksSerializer(allow_null=True, help_text="both racks, once it is over")


class SummarySerializer(serializers.Serializer):
    layout = serializers.ChoiceField(choices=LAYOUTS, help_text="the board's bonus squares")

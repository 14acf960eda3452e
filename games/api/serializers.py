"""Input and output serializers of the games API.

Output serializers are whitelists: a view is rendered through them, so a key the engine or a
selector might add never reaches a player unless it is declared here.
"""

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from config.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)
from games import registry
from games.models import TURN_HOURS_CHOICES, Game, Move

LEVELS = registry.get("crazy10s").levels
TERMINATIONS = ("rack_emptied", "scoreless_turns", "resignation", "aborted", "awarded")


# --- input ----------------------------------------------------------------------------------
class OpponentInputSerializer(serializers.Serializer):
    ai = StrictChoiceField(choices=LEVELS, required=False)
    username = StrictCharField(max_length=150, required=False)
    random = StrictBooleanField(required=False, help_text="true (a JSON boolean)")

    def validate(self, attrs):
        if len(attrs) != 1:
            raise serializers.ValidationError(
                _('Give exactly one of {"ai": LEVEL}, {"username": NAME} or {"random": true}.')
            )
        if "random" in attrs and attrs["random"] is not True:
            raise serializers.ValidationError(_('Use {"random": true} for a random opponent.'))
        return attrs


class CreateGameInputSerializer(serializers.Serializer):
    kind = StrictChoiceField(choices=list(registry.KINDS), default="crazy10s")
    opponent = OpponentInputSerializer()
    turn_hours = StrictChoiceField(choices=TURN_HOURS_CHOICES, default=72)
    layout = StrictChoiceField(choices=registry.LAYOUTS, default="classic")


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


class MoveFormSerializer(serializers.Serializer):
    move = StrictCharField(
        max_length=200, required=False, help_text='"g7=3 h7=*7", "pass" or "swap 3 5 *"'
    )
    tiles = PlacedTileInputSerializer(many=True, required=False, max_length=20)

    def validate(self, attrs):
        if ("move" in attrs) == ("tiles" in attrs):
            raise serializers.ValidationError(_('Give either "move" (notation) or "tiles".'))
        if "tiles" in attrs and not attrs["tiles"]:
            raise serializers.ValidationError({"tiles": [_("Place at least one tile.")]})
        return attrs

    def move_value(self):
        data = self.validated_data
        return data["move"] if "move" in data else [dict(t) for t in data["tiles"]]


class SubmitMoveInputSerializer(MoveFormSerializer):
    expected_move_number = StrictIntegerField(
        min_value=0, max_value=2**31 - 1,
        help_text="move_number of the view the move was chosen on (moves played so far)",
    )


class QueryChoiceField(serializers.ChoiceField):
    """``?status=`` is refused like any other value that is not a choice (DRF would read an
    empty form value as "not given", which the schema's enum does not allow)."""

    def get_value(self, dictionary):
        if dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)


class GameListQuerySerializer(serializers.Serializer):
    status = QueryChoiceField(choices=("active", "waiting", "finished"), required=False)


# --- schema: the rules validate() enforces across fields ------------------------------------
class _CrossFieldRules(OpenApiSerializerExtension):
    """Adds JSON Schema keywords to a serializer's generated request schema."""

    rules: dict = {}
    properties: dict = {}

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        if direction != "request":
            return schema
        for name, extra in self.properties.items():
            schema["properties"][name] = {**schema["properties"][name], **extra}
        return {**schema, **self.rules}


class OpponentRules(_CrossFieldRules):
    target_class = OpponentInputSerializer
    rules = {"oneOf": [{"required": ["ai"]}, {"required": ["username"]}, {"required": ["random"]}]}
    properties = {"random": {"enum": [True]}}


class PlacedTileRules(_CrossFieldRules):
    target_class = PlacedTileInputSerializer
    # A plain tile needs its digit; a wild may leave it to the notation's rules.
    rules = {
        "anyOf": [
            {"required": ["wild"], "properties": {"wild": {"enum": [True]}}},
            {"required": ["digit"], "properties": {"digit": {"type": "integer"}}},
        ]
    }


class MoveFormRules(_CrossFieldRules):
    target_class = MoveFormSerializer
    match_subclasses = True
    rules = {"oneOf": [{"required": ["move"]}, {"required": ["tiles"]}]}
    properties = {"tiles": {"minItems": 1}}


# --- output ---------------------------------------------------------------------------------
class PlayerSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=("human", "computer"))
    username = serializers.CharField(allow_null=True)
    display_name = serializers.CharField()
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    level_description = serializers.CharField(
        allow_null=True, help_text="What the computer player is like (null for a person)"
    )


class ScoresSerializer(serializers.Serializer):
    you = serializers.IntegerField()
    opponent = serializers.IntegerField()


class BonusSquareSerializer(serializers.Serializer):
    square = serializers.CharField()
    kind = serializers.ChoiceField(choices=("DN", "TN", "DL", "TL", "★"))


class ResultSerializer(serializers.Serializer):
    termination = serializers.ChoiceField(choices=TERMINATIONS)
    outcome = serializers.ChoiceField(choices=("win", "loss", "draw", "none"))
    scores = ScoresSerializer()
    adjustments = ScoresSerializer()


class FinalRacksSerializer(serializers.Serializer):
    you = serializers.ListField(child=serializers.CharField())
    opponent = serializers.ListField(child=serializers.CharField())


class GameViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    layout = serializers.ChoiceField(choices=registry.LAYOUTS)
    board = serializers.ListField(
        child=serializers.CharField(), help_text="rows top to bottom, '.' empty, digits tiles"
    )
    bonus_squares = BonusSquareSerializer(many=True)
    rack = serializers.ListField(child=serializers.CharField(), help_text='"0"-"9" or "*"')
    opponent = PlayerSerializer(allow_null=True)
    opponent_rack_size = serializers.IntegerField()
    bag_size = serializers.IntegerField()
    scores = ScoresSerializer()
    your_turn = serializers.BooleanField()
    move_number = serializers.IntegerField(help_text="moves played so far")
    scoreless_turns = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    turn_hours = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)
    final_racks = FinalRacksSerializer(allow_null=True, help_text="both racks, once it is over")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    layout = serializers.ChoiceField(choices=registry.LAYOUTS)
    opponent = PlayerSerializer(allow_null=True)
    scores = ScoresSerializer()
    your_turn = serializers.BooleanField()
    move_number = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    turn_hours = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class LineSerializer(serializers.Serializer):
    direction = serializers.ChoiceField(choices=("across", "down"))
    start = serializers.CharField()
    end = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField())
    score = serializers.IntegerField()


class MoveHistorySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    mine = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=Move.Kind.values)
    notation = serializers.CharField(help_text="an opponent's swap shows only the count")
    score = serializers.IntegerField()
    lines = LineSerializer(many=True)
    is_timeout = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class MovePlayedSerializer(serializers.Serializer):
    score = serializers.IntegerField()
    lines = LineSerializer(many=True)
    drawn = serializers.ListField(child=serializers.CharField(), help_text="tiles you drew")
    game = GameViewSerializer()


class MoveErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class PreviewSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    score = serializers.IntegerField(allow_null=True)
    lines = LineSerializer(many=True)
    error = MoveErrorSerializer(allow_null=True)


class HowToSectionSerializer(serializers.Serializer):
    heading = serializers.CharField()
    text = serializers.CharField()


class BonusKindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    text = serializers.CharField()


class HowToPlaySerializer(serializers.Serializer):
    language = serializers.CharField()
    title = serializers.CharField()
    sections = HowToSectionSerializer(many=True)
    bonus_kinds = BonusKindSerializer(many=True)
    bonus_squares = BonusSquareSerializer(many=True)


class ErrorEnvelopeSerializer(serializers.Serializer):
    error = MoveErrorSerializer()


class ComputerLevelSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=LEVELS)
    name = serializers.CharField()
    description = serializers.CharField()

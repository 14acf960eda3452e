"""Input and output serializers of the games API.

Output serializers are whitelists: a view is rendered through them, so a key the engine or a
selector might add never reaches a player unless it is declared here.
"""

import copy

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from config.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)
from config.schema import CrossFieldRules
from games import kinds
from games.models import TURN_HOURS_CHOICES, Game
from games.results import SERVICE_TERMINATIONS

DEFAULT = kinds.default()  # its fields are the v1 API's (Crazy10s)
LEVELS = tuple(dict.fromkeys(level for k in kinds.all_kinds() for level in k.levels))
MOVE_KINDS = tuple(dict.fromkeys(m for k in kinds.all_kinds() for m in k.move_kinds))
TERMINATIONS = tuple(
    dict.fromkeys([t for k in kinds.all_kinds() for t in k.terminations] + [*SERVICE_TERMINATIONS])
)
OUTCOMES = ("win", "loss", "draw", "none")
KIND_NAMES = tuple(kinds.names())
DEFAULT_KIND_NAMES = (DEFAULT.name,)
OTHER_KINDS = tuple(k.name for k in kinds.all_kinds() if not k.v1_serializers)
V1_KINDS = tuple(k.name for k in kinds.all_kinds() if k.v1_serializers)
LAYOUTS = DEFAULT.options_input().fields["layout"].choices
V1 = DEFAULT.v1_serializers


# --- input ----------------------------------------------------------------------------------
class OpponentInputSerializer(serializers.Serializer):
    ai = StrictChoiceField(choices=DEFAULT.levels, required=False)
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
    """A new game of the default kind (Crazy10s): two seats, one opponent."""

    kind = StrictChoiceField(choices=DEFAULT_KIND_NAMES, default=DEFAULT.name)
    opponent = OpponentInputSerializer()
    turn_hours = StrictChoiceField(choices=TURN_HOURS_CHOICES, default=72)
    layout = StrictChoiceField(choices=LAYOUTS, default="classic")
    rated = StrictBooleanField(
        default=True,
        help_text="a game between people changes both ratings (computer games never do); "
        "random pairing only pairs requests with the same choice",
    )


def _create_input(kind) -> type:
    """A new game of a kind with more seats: ``kind`` (required), 1… computer ``opponents``
    and the kind's own options (its ``options_input`` fields, e.g. Crazy Eights' ``rules``)."""
    seats = kind.seats
    fields = {
        "kind": StrictChoiceField(choices=(kind.name,)),
        "opponents": serializers.ListField(
            child=StrictChoiceField(choices=kind.levels),
            min_length=seats.start - 1,
            max_length=seats.stop - 2,
            help_text="the computer regulars who play the other seats",
        ),
        "turn_hours": StrictChoiceField(choices=TURN_HOURS_CHOICES, default=72),
        **copy.deepcopy(kind.options_input._declared_fields),
    }
    name = "Create" + "".join(p.title() for p in kind.name.split("_")) + "GameInputSerializer"
    return type(name, (serializers.Serializer,), fields)


# One creation form per kind; the request's "kind" picks it (the default kind's without one).
CREATE_INPUTS: dict[str, type] = {
    k.name: CreateGameInputSerializer if k is DEFAULT else _create_input(k)
    for k in kinds.all_kinds()
}


def create_input_for(data) -> type:
    kind = data.get("kind") if isinstance(data, dict) else None
    return CREATE_INPUTS.get(kind, CreateGameInputSerializer) if isinstance(kind, str) else (
        CreateGameInputSerializer
    )


CreateGameRequest = PolymorphicProxySerializer(
    component_name="CreateGame",
    serializers=list(dict.fromkeys(CREATE_INPUTS.values())),
    resource_type_field_name=None,
)


# A move as the API receives it: the default kind's form (every kind reads "move" notation).
MoveFormSerializer = DEFAULT.move_input


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


# --- schema: the rules validate() enforces across fields (config.schema.CrossFieldRules) -


class OpponentRules(CrossFieldRules):
    target_class = OpponentInputSerializer
    rules = {"oneOf": [{"required": ["ai"]}, {"required": ["username"]}, {"required": ["random"]}]}
    properties = {"random": {"enum": [True]}}


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


BonusSquareSerializer = V1["bonus_square"]
LineSerializer = V1["line"]
FinalRacksSerializer = V1["final_racks"]


class ResultSerializer(serializers.Serializer):
    termination = serializers.ChoiceField(choices=TERMINATIONS)
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="winning seats (empty: a draw or none)"
    )
    scores = ScoresSerializer()
    adjustments = ScoresSerializer()


class SeatPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    score = serializers.IntegerField()
    result = serializers.ChoiceField(
        choices=OUTCOMES, allow_null=True, help_text="once it is over"
    )
    is_you = serializers.BooleanField()
    is_computer = serializers.BooleanField()
    piece_count = serializers.IntegerField(help_text="tiles on the rack / cards in hand")
    away = serializers.BooleanField(help_text="the computer plays this seat meanwhile")


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Position",
        serializers=[k.position_output for k in kinds.all_kinds()],
        resource_type_field_name=None,
    )
)
class PositionField(serializers.Field):
    """The kind-specific position, rendered by the kind's own (whitelisting) serializer."""

    def get_attribute(self, instance):
        return instance

    def to_representation(self, view):
        return kinds.get(view["kind"]).position_output(view["position"]).data


class _GameViewBase(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    seat_count = serializers.IntegerField()
    players = SeatPlayerSerializer(many=True)
    your_seat = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True, help_text="seat to move (null: nobody)")
    position = PositionField()
    move_number = serializers.IntegerField(help_text="moves played so far")
    deadline = serializers.DateTimeField(allow_null=True)
    turn_hours = serializers.IntegerField()
    rated = serializers.BooleanField(help_text="the result changes the players' ratings")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)


class CoachNoteSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()




class KindGameViewSerializer(_GameViewBase):
    """The view of a game of a kind without v1 fields (Crazy Eights)."""

    kind = serializers.ChoiceField(choices=OTHER_KINDS)
    coach = CoachNoteSerializer(
        many=True, required=False,
        help_text="during your first match: what the card effects since your last move mean",
    )


class GameViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    seat_count = serializers.IntegerField()
    players = SeatPlayerSerializer(many=True)
    your_seat = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True, help_text="seat to move (null: nobody)")
    position = PositionField()
    # The v1 fields (two-seat games; Crazy10s): unchanged for older clients.
    layout = serializers.ChoiceField(choices=LAYOUTS)
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
    rated = serializers.BooleanField(help_text="the result changes the players' ratings")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)
    final_racks = FinalRacksSerializer(allow_null=True, help_text="both racks, once it is over")


def view_serializer(view) -> type:
    """The game view's serializer: with the v1 fields for the kinds that have them."""
    return GameViewSerializer if view["kind"] in V1_KINDS else KindGameViewSerializer


AnyGameView = PolymorphicProxySerializer(
    component_name="AnyGameView",
    serializers=[GameViewSerializer, KindGameViewSerializer],
    resource_type_field_name=None,
)


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    layout = serializers.ChoiceField(choices=LAYOUTS)
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


class MoveHistorySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    mine = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    notation = serializers.CharField(help_text="an opponent's swap shows only the count")
    score = serializers.IntegerField()
    lines = LineSerializer(many=True, required=False, help_text="Crazy10s: the scored lines")
    events = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="Crazy Eights: what the move did (public events)",
    )
    best_score = serializers.IntegerField(
        allow_null=True,
        help_text="the best score the mover could have made (null: not analysed yet, not a "
        "move that gets one, or another player's move while the game runs)",
    )
    best_notation = serializers.CharField(
        allow_null=True, allow_blank=True,
        help_text='that best move ("" when nothing could be placed)',
    )
    percent_of_best = serializers.FloatField(
        allow_null=True, help_text="score / best_score in percent (100 when best_score is 0)"
    )
    is_timeout = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class AnalysedMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    mine = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    notation = serializers.CharField(help_text="an opponent's swap shows only the count")
    score = serializers.IntegerField()
    best_score = serializers.IntegerField(
        allow_null=True,
        help_text="null: a move without analysis (a resignation), not analysed yet, or "
        "another seat's move in a game that ended without play (aborted, awarded)",
    )
    best_notation = serializers.CharField(allow_null=True, allow_blank=True)
    percent_of_best = serializers.FloatField(allow_null=True)


class SeatAnalysisSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    is_you = serializers.BooleanField()
    moves_analysed = serializers.IntegerField()
    average_percent_of_best = serializers.FloatField(allow_null=True)


class GameAnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    complete = serializers.BooleanField(
        help_text="false while a worker is still analysing moves (ask again shortly)"
    )
    seats = SeatAnalysisSerializer(many=True)
    moves = AnalysedMoveSerializer(many=True)


class MovePlayedSerializer(serializers.Serializer):
    score = serializers.IntegerField()
    lines = LineSerializer(many=True)
    drawn = serializers.ListField(child=serializers.CharField(), help_text="tiles you drew")
    game = GameViewSerializer()


class KindMovePlayedSerializer(serializers.Serializer):
    """A played move of a kind without v1 fields (Crazy Eights)."""

    score = serializers.IntegerField(help_text="points the move scored (a round it ended)")
    events = serializers.ListField(child=serializers.DictField(), help_text="what it did")
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="the cards you drew"
    )
    game = KindGameViewSerializer()


AnyMovePlayed = PolymorphicProxySerializer(
    component_name="AnyMovePlayed",
    serializers=[MovePlayedSerializer, KindMovePlayedSerializer],
    resource_type_field_name=None,
)


def move_played_serializer(body) -> type:
    return MovePlayedSerializer if body["game"]["kind"] in V1_KINDS else KindMovePlayedSerializer


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


class KindQuerySerializer(serializers.Serializer):
    kind = QueryChoiceField(choices=kinds.names(), required=False)


class HintReasonSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class HintSerializer(serializers.Serializer):
    move = serializers.CharField(allow_null=True, help_text="null: it is not your turn")
    reason = HintReasonSerializer()


class ComputerLevelSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=LEVELS)
    name = serializers.CharField()
    description = serializers.CharField()

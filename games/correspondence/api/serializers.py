from rest_framework import serializers

from config.fields import StrictBooleanField
from games import kinds
from games.api.inputs import QueryChoiceField
from games.correspondence import archive, rules


class VacationPeriodSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(
        help_text="it ends itself then; your turn clocks resume with the time they had left"
    )


class VacationStateSerializer(serializers.Serializer):
    available_days = serializers.IntegerField(
        help_text="whole days you may still take (a running vacation's are already taken)"
    )
    maximum_days = serializers.IntegerField(
        help_text="the most days you can hold and the longest vacation"
    )
    days_per_week = serializers.IntegerField(help_text="days earned per week since sign-up")
    vacation = VacationPeriodSerializer(allow_null=True, help_text="null: not on vacation")


class VacationInputSerializer(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=rules.MAXIMUM_DAYS)


class ArchiveQuerySerializer(serializers.Serializer):
    opponent = serializers.CharField(required=False, max_length=150,
                                     help_text="an opponent's username (any case)")
    kind = QueryChoiceField(choices=kinds.names(), required=False)
    result = QueryChoiceField(choices=archive.RESULTS, required=False,
                              help_text="your result (none: aborted)")
    month = serializers.RegexField(archive.MONTH.pattern, required=False,
                                   help_text="the month it ended, YYYY-MM (UTC)")


class RecordPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    level = serializers.CharField(allow_null=True, help_text="a computer's level")
    score = serializers.IntegerField()
    result = serializers.CharField(allow_null=True)


class RecordMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.CharField()
    notation = serializers.CharField(
        help_text="the rules' notation; while the game runs the public one (a swap: its count)"
    )
    score = serializers.IntegerField()
    is_timeout = serializers.BooleanField()
    played_at = serializers.DateTimeField()
    scores_after = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    pieces_before = serializers.CharField(
        required=False,
        help_text="the mover's rack or hand before the move: finished games only",
    )
    best_score = serializers.IntegerField(required=False, allow_null=True,
                                          help_text="finished games only")
    best_notation = serializers.CharField(required=False, allow_null=True,
                                          help_text="finished games only")
    percent_of_best = serializers.FloatField(required=False, allow_null=True,
                                             help_text="finished games only")


class RecordResultSerializer(serializers.Serializer):
    termination = serializers.CharField()
    winners = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())
    adjustments = serializers.ListField(child=serializers.IntegerField())


class GameRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    full = serializers.BooleanField(
        help_text="the game is over by play: every seat's pieces are shown (never while it "
        "runs, nor for an aborted or awarded game)"
    )
    turn_hours = serializers.IntegerField()
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    players = RecordPlayerSerializer(many=True)
    result = RecordResultSerializer(allow_null=True)
    moves = RecordMoveSerializer(many=True)


class SpectatorPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    is_computer = serializers.BooleanField()
    score = serializers.IntegerField()
    result = serializers.CharField(allow_null=True)
    piece_count = serializers.IntegerField(help_text="tiles on the rack / cards in hand")
    vacation_until = serializers.DateTimeField(allow_null=True)


class SpectatorResultSerializer(serializers.Serializer):
    termination = serializers.CharField()
    winners = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())


class SpectatorMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.CharField()
    notation = serializers.CharField(help_text="the public notation (a swap: its count)")
    score = serializers.IntegerField()
    is_timeout = serializers.BooleanField()


class SpectatorViewSerializer(serializers.Serializer):
    """A spectator's view: its own shape, built from public facts only."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    seat_count = serializers.IntegerField()
    players = SpectatorPlayerSerializer(many=True)
    to_move = serializers.IntegerField(allow_null=True)
    move_number = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    turn_hours = serializers.IntegerField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = SpectatorResultSerializer(allow_null=True)
    position = serializers.DictField(
        help_text="the kind's spectator position (Crazy10s: board, bonus squares, bag size, "
        "rack sizes; Crazy Eights: round, top card, suit, card counts): no rack, hand, bag "
        "or stock"
    )
    spectators = serializers.IntegerField(help_text="people watching now")
    moves = SpectatorMoveSerializer(many=True)


class WatchSettingsSerializer(serializers.Serializer):
    public_games = StrictBooleanField(
        help_text="anyone may watch your games whose every player said so (friends always may)"
    )

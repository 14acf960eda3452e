"""Puzzle API payloads. Nothing about the solution is serialized unless ``reveal`` is true."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import StrictCharField
from games.crazy10s.engine import parse_layout
from games.crazy10s.puzzles.selectors import percent_of_best


class PuzzleBonusSquareSerializer(serializers.Serializer):
    square = serializers.CharField()
    kind = serializers.CharField(help_text="One of DN, TN, DL, TL, ★.")


class PuzzleSolutionSerializer(serializers.Serializer):
    best_score = serializers.IntegerField()
    best_move = serializers.CharField()


class PuzzleOwnAttemptSerializer(serializers.Serializer):
    move = serializers.CharField()
    score = serializers.IntegerField()
    percent_of_best = serializers.FloatField()
    rank = serializers.IntegerField()
    submitted_at = serializers.DateTimeField()


class PuzzleSerializer(serializers.Serializer):
    """Context: ``attempt`` (the viewer's or None), ``rank``, ``reveal`` (show the solution)."""

    date = serializers.DateField()
    size = serializers.SerializerMethodField()
    board = serializers.SerializerMethodField()
    board_notation = serializers.CharField(source="board")
    layout = serializers.CharField()
    bonus_squares = serializers.SerializerMethodField()
    rack = serializers.SerializerMethodField()
    open = serializers.SerializerMethodField()
    attempt_count = serializers.IntegerField()
    your_attempt = serializers.SerializerMethodField()
    solution = serializers.SerializerMethodField()

    @extend_schema_field(serializers.IntegerField())
    def get_size(self, puzzle) -> int:
        return len(puzzle.board.split("/"))

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_board(self, puzzle) -> list[str]:
        return puzzle.board.split("/")

    @extend_schema_field(PuzzleBonusSquareSerializer(many=True))
    def get_bonus_squares(self, puzzle) -> list[dict]:
        squares = parse_layout(puzzle.layout).bonus_squares()
        return [{"square": name, "kind": kind} for name, kind in squares]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_rack(self, puzzle) -> list[str]:
        return list(puzzle.rack)

    @extend_schema_field(serializers.BooleanField())
    def get_open(self, puzzle) -> bool:
        return bool(self.context.get("open"))

    @extend_schema_field(PuzzleOwnAttemptSerializer(allow_null=True))
    def get_your_attempt(self, puzzle) -> dict | None:
        attempt = self.context.get("attempt")
        if attempt is None:
            return None
        return PuzzleOwnAttemptSerializer(
            {
                "move": attempt.move,
                "score": attempt.score,
                "percent_of_best": percent_of_best(attempt.score, puzzle.best_score),
                "rank": self.context["rank"],
                "submitted_at": attempt.created_at,
            }
        ).data

    @extend_schema_field(PuzzleSolutionSerializer(allow_null=True))
    def get_solution(self, puzzle) -> dict | None:
        if not self.context.get("reveal"):
            return None
        return {"best_score": puzzle.best_score, "best_move": puzzle.best_move}


class PuzzleAttemptInputSerializer(serializers.Serializer):
    move = StrictCharField(max_length=200, help_text="A placement, e.g. 'f5=3 g5=*7'.")


class PuzzleAttemptResultSerializer(serializers.Serializer):
    date = serializers.DateField()
    move = serializers.CharField()
    score = serializers.IntegerField()
    best_score = serializers.IntegerField()
    best_move = serializers.CharField()
    percent_of_best = serializers.FloatField()
    rank = serializers.IntegerField()
    attempt_count = serializers.IntegerField()


class PuzzleLeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.IntegerField()
    percent_of_best = serializers.FloatField(
        allow_null=True, help_text="Hidden (null) on an open puzzle you have not played yet."
    )
    submitted_at = serializers.DateTimeField()


class PuzzleLeaderboardPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PuzzleLeaderboardEntrySerializer(many=True)

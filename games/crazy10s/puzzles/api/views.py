"""Daily Puzzle endpoints (``/api/v1/puzzles/...``); all work is in services and selectors."""

from __future__ import annotations

from datetime import date

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.envelope import ErrorEnvelopeSerializer
from config.errors import ApiError
from config.throttling import UserThrottle
from games.crazy10s.puzzles import selectors, services
from games.crazy10s.puzzles.api.serializers import (
    PuzzleAttemptInputSerializer,
    PuzzleAttemptResultSerializer,
    PuzzleLeaderboardEntrySerializer,
    PuzzleLeaderboardPageSerializer,
    PuzzleSerializer,
)
from games.crazy10s.puzzles.models import Puzzle

TAGS = ["puzzles"]
DATE_PARAM = OpenApiParameter(
    "day", OpenApiTypes.DATE, OpenApiParameter.PATH, description="The UTC day, YYYY-MM-DD."
)


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ApiError("not_found", _("There is no puzzle for that day."), status=404) from None


def _puzzle_body(request, puzzle: Puzzle) -> dict:
    """The solution shows once the viewer has played it, or once its UTC day is over."""
    attempt = selectors.attempt_of(puzzle, request.user)
    is_open = puzzle.date == selectors.utc_today()
    context = {
        "attempt": attempt,
        "rank": selectors.rank_of(attempt) if attempt else None,
        "open": is_open,
        "reveal": attempt is not None or puzzle.date < selectors.utc_today(),
    }
    puzzle.attempt_count = puzzle.attempts.count()
    return PuzzleSerializer(puzzle, context=context).data


class DailyPuzzleView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PuzzleSerializer}, operation_id="puzzles_daily", tags=TAGS)
    def get(self, request):
        puzzle = services.puzzle_for_view(selectors.utc_today())
        return Response(_puzzle_body(request, puzzle))


class PuzzleView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[DATE_PARAM],
        responses={200: PuzzleSerializer},
        operation_id="puzzles_retrieve",
        tags=TAGS,
    )
    def get(self, request, day: str):
        puzzle = services.puzzle_for_view(_parse_day(day))
        return Response(_puzzle_body(request, puzzle))


class AttemptView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [UserThrottle]
    throttle_scope = "game_writes"

    @extend_schema(
        parameters=[DATE_PARAM],
        request=PuzzleAttemptInputSerializer,
        responses={
            201: PuzzleAttemptResultSerializer,
            400: OpenApiResponse(ErrorEnvelopeSerializer, description=(
                "`invalid`, or the move breaks a rule (the engine's code: `bad_sum`, "
                "`not_in_rack`, `gap`, ...): it is not stored, try again"
            )),
            404: OpenApiResponse(ErrorEnvelopeSerializer,
                                 description="`not_found`: no puzzle that day (yet)"),
            409: OpenApiResponse(ErrorEnvelopeSerializer, description=(
                "`already_attempted`: one attempt per puzzle and player"
            )),
        },
        operation_id="puzzles_attempt",
        tags=TAGS,
    )
    def post(self, request, day: str):
        data = PuzzleAttemptInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.submit_attempt(
            user=request.user, day=_parse_day(day), move_text=data.validated_data["move"]
        )
        puzzle, attempt = result.puzzle, result.attempt
        body = {
            "date": puzzle.date,
            "move": attempt.move,
            "score": attempt.score,
            "best_score": puzzle.best_score,
            "best_move": puzzle.best_move,
            "percent_of_best": selectors.percent_of_best(attempt.score, puzzle.best_score),
            "rank": result.rank,
            "attempt_count": result.attempt_count,
        }
        return Response(PuzzleAttemptResultSerializer(body).data, status=status.HTTP_201_CREATED)


class LeaderboardView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: PuzzleLeaderboardPageSerializer,
            404: OpenApiResponse(ErrorEnvelopeSerializer, description="No puzzle that day"),
            409: OpenApiResponse(
                ErrorEnvelopeSerializer,
                description="attempt_first: today's leaderboard shows once you have played it",
            ),
        },
        parameters=[DATE_PARAM, OpenApiParameter("page", OpenApiTypes.INT)],
        operation_id="puzzles_leaderboard",
        tags=TAGS,
    )
    def get(self, request, day: str):
        puzzle = services.puzzle_for_view(_parse_day(day))
        # The top scores of an open puzzle give away its best score: play it first.
        is_open = puzzle.date >= selectors.utc_today()
        if is_open and selectors.attempt_of(puzzle, request.user) is None:
            raise ApiError(
                "attempt_first",
                _("Play today's puzzle first: its leaderboard shows once you have played it."),
                status=409,
            )
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.leaderboard(puzzle), request, view=self)
        assert page is not None  # REST_FRAMEWORK["PAGE_SIZE"] is set
        rows = [
            {
                "rank": entry.rank,
                "player": entry.user.public_name,
                "score": entry.score,
                "percent_of_best": selectors.percent_of_best(entry.score, puzzle.best_score),
                "submitted_at": entry.created_at,
            }
            for entry in page
        ]
        body = PuzzleLeaderboardEntrySerializer(rows, many=True).data
        return paginator.get_paginated_response(body)

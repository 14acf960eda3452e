"""Read-side queries of the Daily Puzzle: rank, leaderboard, streaks."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.crazy10s.puzzles.models import Puzzle, PuzzleAttempt

# One "% of best" for puzzles and games (re-exported for the puzzle API).
from games.selectors import percent_of_best as percent_of_best

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django_stubs_ext import WithAnnotations

    from accounts.models import User


class Ranked(TypedDict):
    rank: int  # 1-based, in leaderboard order

# Leaderboard order: best score first; ties by submission time (then id, for a total order).
LEADERBOARD_ORDER = (F("score").desc(), F("created_at").asc(), F("id").asc())


def utc_today() -> date:
    return timezone.now().date()  # USE_TZ with TIME_ZONE UTC: now() is an aware UTC datetime


def attempt_of(puzzle: Puzzle, user: User | AnonymousUser) -> PuzzleAttempt | None:
    if not user.is_authenticated:
        return None
    return PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).first()


def rank_of(attempt: PuzzleAttempt) -> int:
    """1 + the attempts ahead of this one in leaderboard order."""
    score, at = attempt.score, attempt.created_at
    ahead = PuzzleAttempt.objects.filter(puzzle_id=attempt.puzzle_id).filter(
        Q(score__gt=score)
        | Q(score=score, created_at__lt=at)
        | Q(score=score, created_at=at, id__lt=attempt.id)
    )
    return ahead.count() + 1


def has_puzzle(day: date) -> bool:
    """Whether a puzzle of ``day`` is stored (the first day has no day before it)."""
    return Puzzle.objects.filter(date=day).exists()


def leaderboard(puzzle: Puzzle) -> QuerySet[WithAnnotations[PuzzleAttempt, Ranked]]:
    """Attempts in leaderboard order, each annotated with its ``rank`` (1-based)."""
    return (
        PuzzleAttempt.objects.filter(puzzle=puzzle)
        .select_related("user")
        .annotate(rank=Window(RowNumber(), order_by=LEADERBOARD_ORDER))
        .order_by(*LEADERBOARD_ORDER)
    )


def _attempt_days(user) -> list[date]:
    """The UTC days the user played, newest first (one attempt per puzzle, one puzzle a day)."""
    return list(
        PuzzleAttempt.objects.filter(user=user)
        .order_by("-puzzle__date")
        .values_list("puzzle__date", flat=True)
    )


def _runs(days: list[date]) -> list[tuple[date, int]]:
    """Runs of consecutive days as (newest day of the run, length), newest run first."""
    runs: list[tuple[date, int]] = []
    for day in days:
        if runs and runs[-1][0] - timedelta(days=runs[-1][1]) == day:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((day, 1))
    return runs


def streaks(user: User, today: date | None = None) -> tuple[int, int]:
    """(current streak, best streak) in consecutive UTC days with an attempt.

    The current streak counts only while it ends today or yesterday: missing yesterday's puzzle
    breaks it, not having played today yet does not.
    """
    if not getattr(user, "is_authenticated", False):
        return 0, 0
    today = today or utc_today()
    runs = _runs([d for d in _attempt_days(user) if d <= today])
    if not runs:
        return 0, 0
    newest_day, newest_length = runs[0]
    current = newest_length if newest_day >= today - timedelta(days=1) else 0
    return current, max(length for _, length in runs)


def current_streak(user: User, today: date | None = None) -> int:
    return streaks(user, today)[0]


def profile_extras(user: User) -> dict[str, int]:
    """What a player's profile shows of the Daily Puzzle (``SOCIAL_PROFILE_EXTRAS`` and
    ``ACCOUNT_PROFILE_EXTRAS``)."""
    current, best = streaks(user)
    return {"puzzle_streak": current, "best_puzzle_streak": best}


def export_extras(user: User) -> dict[str, Any]:
    """The user's attempts for their account export (``ACCOUNT_EXPORT_EXTRAS``)."""
    attempts = PuzzleAttempt.objects.filter(user=user).select_related("puzzle").order_by("pk")
    return {
        "puzzle_attempts": [
            {
                "date": a.puzzle.date.isoformat(),
                "move": a.move,
                "score": a.score,
                "best_score": a.puzzle.best_score,
                "at": a.created_at.isoformat() if a.created_at else None,
            }
            for a in attempts
        ]
    }

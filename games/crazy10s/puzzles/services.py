"""Write-side of the Daily Puzzle: making puzzles, attempts, a moderator's replacement."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games.crazy10s.engine import (
    IllegalMoveError,
    Placement,
    check_placement,
    format_move,
    parse_board,
    parse_layout,
    parse_move,
    parse_rack,
)
from games.crazy10s.messages import message_for
from games.crazy10s.puzzles import generation, selectors
from games.crazy10s.puzzles.models import Puzzle, PuzzleAttempt

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)


def _fields(made: generation.GeneratedPuzzle) -> dict:
    return {
        "board": made.board,
        "layout": made.layout,
        "rack": made.rack,
        "best_score": made.best_score,
        "best_move": made.best_move,
        "legal_move_count": made.legal_move_count,
        "generation_attempt": made.attempt,
        "generated_at": timezone.now(),
    }


def ensure_puzzle(day: date) -> tuple[Puzzle, bool]:
    """The day's puzzle, generated if missing; (puzzle, created). Safe under races.

    Generation runs outside any transaction (it is pure and fast); a concurrent creator wins the
    unique date and the loser simply reads the row.
    """
    existing = Puzzle.objects.filter(date=day).first()
    if existing is not None:
        return existing, False
    made = generation.generate_puzzle(day, secret=settings.PUZZLE_SECRET)
    try:
        with transaction.atomic():
            puzzle, created = Puzzle.objects.get_or_create(date=day, defaults=_fields(made))
    except IntegrityError:
        return Puzzle.objects.get(date=day), False
    if created:
        log.info("daily puzzle created for %s", day.isoformat())
    return puzzle, created


def ensure_daily_puzzles(today: date | None = None) -> list[date]:
    """Create today's and tomorrow's (UTC) puzzles if missing; the dates created."""
    today = today or selectors.utc_today()
    created = []
    for day in (today, today + timedelta(days=1)):
        _, was_created = ensure_puzzle(day)
        if was_created:
            created.append(day)
    return created


def puzzle_for_view(day: date) -> Puzzle:
    """A puzzle a player may look at: today's (made on demand) or a stored past one."""
    today = selectors.utc_today()
    if day > today:
        raise ApiError("not_found", _("There is no puzzle for that day yet."), status=404)
    if day == today:
        return ensure_puzzle(day)[0]
    puzzle = Puzzle.objects.filter(date=day).first()
    if puzzle is None:
        raise ApiError("not_found", _("There was no puzzle that day."), status=404)
    return puzzle


@dataclass(frozen=True, slots=True)
class AttemptResult:
    attempt: PuzzleAttempt
    puzzle: Puzzle
    rank: int
    attempt_count: int


def _already_attempted() -> ApiError:
    return ApiError("already_attempted", _("You have already played this puzzle."), status=409)


def _score(puzzle: Puzzle, move_text: str) -> tuple[str, int]:
    """The move in canonical notation and its score; illegal moves raise the engine's code."""
    try:
        move = parse_move(move_text)
        if not isinstance(move, Placement):
            raise ApiError(
                "placement_required",
                _("The puzzle is solved with a placement such as 'f5=3 g5=7'."),
            )
        board = parse_board(puzzle.board, parse_layout(puzzle.layout))
        scored = check_placement(board, move, parse_rack(puzzle.rack), seven_tile_bonus=False)
    except IllegalMoveError as exc:
        raise ApiError(
            exc.code, message_for(exc.code, exc.details), details=exc.details
        ) from exc
    return format_move(scored.move), scored.score


def submit_attempt(*, user: User, day: date, move_text: str) -> AttemptResult:
    """Score the user's one attempt at today's puzzle.

    An illegal move raises before anything is written, so it does not use up the attempt. The
    puzzle row is locked (PostgreSQL) and (puzzle, user) is unique, so of two concurrent
    submissions exactly one is stored; the other gets ``already_attempted``.
    """
    today = selectors.utc_today()
    if day > today:
        raise ApiError("not_found", _("There is no puzzle for that day yet."), status=404)
    if day < today:
        puzzle_for_view(day)  # 404 for a day that had no puzzle
        raise ApiError("puzzle_closed", _("Only today's puzzle can be played."), status=409)
    puzzle = ensure_puzzle(day)[0]
    if PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).exists():
        raise _already_attempted()
    notation, score = _score(puzzle, move_text)
    try:
        with transaction.atomic():
            Puzzle.objects.select_for_update().filter(pk=puzzle.pk).first()
            if PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).exists():
                raise _already_attempted()
            attempt = PuzzleAttempt.objects.create(
                puzzle=puzzle, user=user, move=notation, score=score
            )
    except IntegrityError as exc:
        raise _already_attempted() from exc
    return AttemptResult(
        attempt=attempt,
        puzzle=puzzle,
        rank=selectors.rank_of(attempt),
        attempt_count=puzzle.attempts.count(),
    )


# --- moderation ------------------------------------------------------------------------------


def replacement_refusal(puzzle: Puzzle) -> str | None:
    """Why a moderator may not replace this puzzle, or None if they may."""
    if puzzle.date <= selectors.utc_today():
        return "the puzzle's day has already started (UTC)"
    if puzzle.attempts.exists():
        return "players have already attempted it"
    return None


def regenerate_puzzle(puzzle: Puzzle) -> Puzzle:
    """Replace a future puzzle by the generator's next interesting position for that date."""
    refusal = replacement_refusal(puzzle)
    if refusal:
        raise ApiError("puzzle_locked", f"Cannot replace the puzzle: {refusal}.", status=409)
    made = generation.generate_puzzle(
        puzzle.date,
        first_attempt=puzzle.generation_attempt + 1,
        secret=settings.PUZZLE_SECRET,
    )
    for name, value in _fields(made).items():
        setattr(puzzle, name, value)
    puzzle.save()
    return puzzle


def analyse_position(board: str, layout: str, rack: str) -> generation.Analysis:
    """Validate a moderator's position and find its best move; raises ``ValueError``."""
    try:
        tiles = parse_rack(rack)
        analysis = generation.analyse_notation(board, layout, tiles)
    except IllegalMoveError as exc:
        raise ValueError(exc.message) from exc
    if len(tiles) != generation.RACK_TILES:
        raise ValueError(f"The rack must hold {generation.RACK_TILES} tiles.")
    if parse_layout(layout).size != generation.PUZZLE_OPTIONS.size:
        raise ValueError("The puzzle board is 11×11.")
    if analysis is None:
        raise ValueError("The rack has no legal placement on this board.")
    return analysis

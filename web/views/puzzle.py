"""The Daily Puzzle: today's (or a past day's) position, your result beside the best one with
the best move drawn on the board, the leaderboard and your streak. The attempt itself is sent
by the page's script to ``POST /api/v1/puzzles/<day>/attempt``."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.crazy10s.puzzles import selectors, services
from games.crazy10s.puzzles.api.serializers import PuzzleSerializer
from web.crazy10s import board_html, board_rows, squares_of
from web.views.common import SignedInRequest, page_errors

LEADERBOARD_SHOWN = 10
PLACED = re.compile(r"\b([a-z])(\d{1,2})=\*?(\d)")


def _with_move(rows: list[str], notation: str | None) -> list[str]:
    """The board rows with a placement's digits written in (to draw the best move)."""
    grid = [list(row) for row in rows]
    for column, row, digit in PLACED.findall(notation or ""):
        grid[int(row) - 1][ord(column) - ord("a")] = digit
    return ["".join(row) for row in grid]


def _day(text: str | None) -> date:
    if text is None:
        return selectors.utc_today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404 from None


@login_required
@require_GET
@page_errors
def puzzle_page(request: SignedInRequest, day: str | None = None) -> HttpResponse:
    puzzle = services.puzzle_for_view(_day(day))
    attempt = selectors.attempt_of(puzzle, request.user)
    today = selectors.utc_today()
    puzzle.attempt_count = puzzle.attempts.count()
    body: dict[str, Any] = PuzzleSerializer(
        puzzle,
        context={
            "attempt": attempt,
            "rank": selectors.rank_of(attempt) if attempt else None,
            "open": puzzle.date == today,
            "reveal": attempt is not None or puzzle.date < today,
        },
    ).data
    solution = body["solution"]
    best = solution["best_move"] if solution else None
    rows = _with_move(body["board"], best) if best else body["board"]
    leaders = []
    if attempt is not None or puzzle.date < today:
        leaders = [
            {"rank": e.rank, "player": e.user.public_name, "username": e.user.username,
             "score": e.score,
             "percent": selectors.percent_of_best(e.score, puzzle.best_score),
             "you": e.user_id == request.user.pk}
            for e in selectors.leaderboard(puzzle)[:LEADERBOARD_SHOWN]
        ]
    streak, best_streak = selectors.streaks(request.user)
    context = {
        "puzzle": body,
        "board": board_html(board_rows(rows, body["bonus_squares"], squares_of(best)), _("Board")),
        "rack": body["rack"],
        "leaders": leaders,
        "streak": streak,
        "best_streak": best_streak,
        "can_play": body["open"] and attempt is None,
        # no link to a day without a puzzle (the first day's "day before" was a 404)
        "previous_day": (puzzle.date - timedelta(days=1)).isoformat()
        if selectors.has_puzzle(puzzle.date - timedelta(days=1)) else None,
        "is_today": puzzle.date == today,
    }
    return render(request, "web/puzzle.html", context)

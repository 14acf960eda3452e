"""Daily Puzzle fixtures: a frozen UTC clock and stored puzzles."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from games.crazy10s.puzzles import services
from games.crazy10s.puzzles.models import Puzzle

TODAY = date(2025, 3, 10)
NOON = datetime(2025, 3, 10, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    """Time frozen (ticking) at noon UTC on ``TODAY``; ``clock.move_to(...)`` travels."""
    with time_machine.travel(NOON, tick=True) as traveller:
        yield traveller


@pytest.fixture
def today_puzzle(db, clock) -> Puzzle:
    return services.ensure_puzzle(TODAY)[0]


def stored_puzzle(day: date, **fields) -> Puzzle:
    """A puzzle row without running the generator (for streak and leaderboard tests)."""
    defaults = {
        "board": "/".join(["..........."] * 5 + [".....55...."] + ["..........."] * 5),
        "layout": "T.d..T..d.T/.D..t.t..D./d....d....d/...D...D.../.t.......t./T.d..*..d.T/"
        ".t.......t./...D...D.../d....d....d/.D..t.t..D./T.d..T..d.T",
        "rack": "1234567",
        "best_score": 40,
        "best_move": "f5=1 f7=9",
        "legal_move_count": 10,
        "generated_at": NOON - timedelta(days=1),
    }
    return Puzzle.objects.create(date=day, **{**defaults, **fields})

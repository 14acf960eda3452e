"""Day streaks (selector and GET me) and the idempotent beat task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings

from games.crazy10s.puzzles import generation, selectors, services
from games.crazy10s.puzzles.models import Puzzle, PuzzleAttempt
from games.crazy10s.puzzles.tasks import ensure_daily_puzzles
from tests.puzzles.conftest import NOON, TODAY, stored_puzzle


def played(user, *days_ago: int) -> None:
    for n in days_ago:
        day = TODAY - timedelta(days=n)
        puzzle = Puzzle.objects.filter(date=day).first() or stored_puzzle(day)
        PuzzleAttempt.objects.create(puzzle=puzzle, user=user, move="f5=1 f7=9", score=20)


@pytest.mark.parametrize(
    "days_ago,current,best",
    [
        ((), 0, 0),
        ((0,), 1, 1),
        ((0, 1, 2), 3, 3),
        ((1, 2), 2, 2),  # not played today yet: yesterday's streak still counts
        ((2, 3, 4, 5), 0, 4),  # missed yesterday: broken
        ((0, 2, 3, 4, 9), 1, 3),
    ],
)
def test_streaks(db, clock, alice, days_ago, current, best):
    played(alice, *days_ago)
    assert selectors.streaks(alice) == (current, best)
    assert selectors.current_streak(alice) == current


def test_streak_follows_the_utc_clock(db, clock, alice):
    played(alice, 0, 1)
    clock.move_to(NOON + timedelta(days=1))
    assert selectors.current_streak(alice) == 2
    clock.move_to(NOON + timedelta(days=2))
    assert selectors.current_streak(alice) == 0


def test_get_me_shows_the_streak(db, clock, alice, alice_client, user_factory):
    played(alice, 0, 1, 2, 5, 6, 7, 8)
    played(user_factory(), 3, 4)  # someone else's days do not count
    body = alice_client.get("/api/v1/me").json()
    assert body["puzzle_streak"] == 3
    assert body["best_puzzle_streak"] == 4


def test_beat_task_creates_today_and_tomorrow_once(db, clock):
    assert ensure_daily_puzzles.apply().get() == [
        TODAY.isoformat(),
        (TODAY + timedelta(days=1)).isoformat(),
    ]
    assert ensure_daily_puzzles.apply().get() == []
    stored = list(Puzzle.objects.order_by("date"))
    assert [p.date for p in stored] == [TODAY, TODAY + timedelta(days=1)]
    made = generation.generate_puzzle(TODAY, secret=settings.PUZZLE_SECRET)
    assert (stored[0].board, stored[0].rack, stored[0].best_score) == (
        made.board,
        made.rack,
        made.best_score,
    )


def test_ensure_puzzle_survives_a_concurrent_creator(db, clock, monkeypatch):
    """Another process stores the day's puzzle while this one generates: it is reused."""
    real = generation.generate_puzzle
    theirs = {}

    def generate_while_someone_else_stores(day, first_attempt=0, *, secret=""):
        theirs["puzzle"] = stored_puzzle(day)
        return real(day, first_attempt, secret=secret)

    monkeypatch.setattr(generation, "generate_puzzle", generate_while_someone_else_stores)
    puzzle, created = services.ensure_puzzle(TODAY)
    assert created is False
    assert puzzle.pk == theirs["puzzle"].pk
    assert Puzzle.objects.count() == 1

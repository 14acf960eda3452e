"""One attempt per user per puzzle, even for simultaneous submissions (real PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts import tokens
from games.crazy10s.puzzles import selectors, services
from games.crazy10s.puzzles.models import PuzzleAttempt


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_attempts_store_exactly_one(user_factory):
    assert connection.vendor == "postgresql"
    puzzle, _ = services.ensure_puzzle(selectors.utc_today())
    user = user_factory()
    _, key = tokens.issue(user=user, name="tests")
    path = f"/api/v1/puzzles/{puzzle.date.isoformat()}/attempt"
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def submit() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        try:
            barrier.wait(timeout=10)
            response = client.post(path, {"move": puzzle.best_move}, format="json")
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [201, 409]
    assert PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).count() == 1

"""Admin: list with the drawn position and annotated figures, change page, replacement rules."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse

from games.crazy10s.puzzles import generation
from games.crazy10s.puzzles.models import Puzzle, PuzzleAttempt
from tests.puzzles.conftest import TODAY, stored_puzzle

LIST = reverse("admin:puzzles_puzzle_changelist")


def change_url(puzzle: Puzzle) -> str:
    return reverse("admin:puzzles_puzzle_change", args=[puzzle.pk])


@pytest.fixture
def staff_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("mod", "mod@example.test", "pw-Mod-123!")
    client.force_login(admin)
    return client


def test_list_draws_positions_with_counts_without_n_plus_one(
    db, clock, staff_client, user_factory, django_assert_max_num_queries
):
    for n in range(5):
        stored_puzzle(TODAY - timedelta(days=n), best_score=40)
    today = Puzzle.objects.get(date=TODAY)
    for score in (40, 20):
        PuzzleAttempt.objects.create(puzzle=today, user=user_factory(), move="x", score=score)
    with django_assert_max_num_queries(12):
        response = staff_client.get(LIST)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<table class="c10s-board') == 5  # one drawn board per puzzle
    assert "75.0" in html  # (100 % + 50 %) / 2


def test_change_page_renders_the_board(db, clock, staff_client):
    puzzle = stored_puzzle(TODAY)
    response = staff_client.get(change_url(puzzle))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("data-square=") == 121  # the 11×11 grid
    assert 'class="bonus">TL<' in html and "Rack: <b>1234567</b>" in html


def test_non_staff_are_refused(db, clock, client, alice):
    puzzle = stored_puzzle(TODAY)
    client.force_login(alice)
    for path in (LIST, change_url(puzzle)):
        response = client.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def regenerate(staff_client, puzzle):
    return staff_client.post(
        LIST, {"action": "regenerate", "_selected_action": [puzzle.pk]}, follow=True
    )


def test_regenerate_replaces_a_future_puzzle(db, clock, staff_client):
    made = generation.generate_puzzle(TODAY + timedelta(days=1), secret=settings.PUZZLE_SECRET)
    puzzle = stored_puzzle(TODAY + timedelta(days=1), board=made.board, rack=made.rack)
    puzzle.generation_attempt = made.attempt
    puzzle.save()
    regenerate(staff_client, puzzle)
    puzzle.refresh_from_db()
    assert puzzle.generation_attempt > made.attempt
    assert puzzle.board != made.board
    again = generation.generate_puzzle(
        puzzle.date, first_attempt=made.attempt + 1, secret=settings.PUZZLE_SECRET
    )
    assert (puzzle.board, puzzle.best_score) == (again.board, again.best_score)


def test_regenerate_refused_once_live_or_attempted(db, clock, staff_client, alice):
    live = stored_puzzle(TODAY)
    played = stored_puzzle(TODAY + timedelta(days=1))
    PuzzleAttempt.objects.create(puzzle=played, user=alice, move="x", score=1)
    for puzzle in (live, played):
        before = puzzle.board
        response = regenerate(staff_client, puzzle)
        assert "Cannot replace" in response.content.decode()
        puzzle.refresh_from_db()
        assert puzzle.board == before


def test_editing_the_rack_recomputes_the_best(db, clock, staff_client):
    puzzle = stored_puzzle(TODAY + timedelta(days=3), best_score=1, best_move="old")
    data = {
        "board": puzzle.board,
        "rack": "1289*00",
        "attempts-TOTAL_FORMS": 0,
        "attempts-INITIAL_FORMS": 0,
    }
    response = staff_client.post(change_url(puzzle), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    puzzle.refresh_from_db()
    expected = generation.analyse_notation(puzzle.board, puzzle.layout, (0, 0, 1, 2, 8, 9, 10))
    assert puzzle.rack == "1289*00"
    assert (puzzle.best_score, puzzle.best_move) == (expected.best_score, expected.best_move)


def test_editing_refuses_a_bad_rack(db, clock, staff_client):
    puzzle = stored_puzzle(TODAY + timedelta(days=3))
    data = {
        "board": puzzle.board,
        "rack": "12",
        "attempts-TOTAL_FORMS": 0,
        "attempts-INITIAL_FORMS": 0,
    }
    response = staff_client.post(change_url(puzzle), data)
    assert response.status_code == 200
    assert "7 tiles" in response.content.decode()
    puzzle.refresh_from_db()
    assert puzzle.rack == "1234567"

"""Daily Puzzle API: what is shown before/after an attempt, attempts, leaderboard."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from games.crazy10s.engine import (
    IllegalMoveError,
    check_placement,
    format_move,
    generate_placements,
    parse_board,
    parse_layout,
    parse_move,
    parse_rack,
)
from games.crazy10s.puzzles.models import PuzzleAttempt
from tests.helpers import assert_error
from tests.puzzles.conftest import NOON, TODAY, stored_puzzle

DAILY = "/api/v1/puzzles/daily"


def url(day, suffix: str = "") -> str:
    return f"/api/v1/puzzles/{day.isoformat()}{suffix}"


def weaker_legal_move(puzzle) -> tuple[str, int]:
    """A legal move scoring less than the best (every generated puzzle has one)."""
    board = parse_board(puzzle.board, parse_layout(puzzle.layout))
    moves = generate_placements(board, parse_rack(puzzle.rack), seven_tile_bonus=False)
    move = min(moves, key=lambda m: m.score)
    assert move.score < puzzle.best_score
    return format_move(move.move), move.score


def assert_no_solution(body: dict, puzzle) -> None:
    text = json.dumps(body)
    assert "best_move" not in text and "best_score" not in text
    assert puzzle.best_move not in text
    assert body["solution"] is None and body["your_attempt"] is None


def test_daily_shows_the_position_and_nothing_of_the_solution(today_puzzle, alice_client):
    body = alice_client.get(DAILY).json()
    assert body["date"] == TODAY.isoformat()
    assert body["board_notation"] == today_puzzle.board
    assert body["board"] == today_puzzle.board.split("/") and body["size"] == 11
    assert body["layout"] == today_puzzle.layout
    assert "".join(body["rack"]) == today_puzzle.rack and len(body["rack"]) == 7
    assert {"square": "f6", "kind": "★"} in body["bonus_squares"]
    assert body["open"] is True
    assert_no_solution(body, today_puzzle)
    assert_no_solution(alice_client.get(url(TODAY)).json(), today_puzzle)


def test_daily_creates_a_missing_puzzle_on_first_request(db, clock, alice_client):
    response = alice_client.get(DAILY)
    assert response.status_code == 200
    assert response.json()["date"] == TODAY.isoformat()


def test_anonymous_is_refused(today_puzzle, api_client):
    assert_error(api_client.get(DAILY), 401, "not_authenticated")


def test_attempt_scores_and_reveals_the_best(today_puzzle, alice_client):
    move, score = weaker_legal_move(today_puzzle)
    response = alice_client.post(url(TODAY, "/attempt"), {"move": move}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["score"] == score
    assert body["best_score"] == today_puzzle.best_score
    assert body["best_move"] == today_puzzle.best_move
    assert body["percent_of_best"] == round(100 * score / today_puzzle.best_score, 1)
    assert body["rank"] == 1 and body["attempt_count"] == 1
    daily = alice_client.get(DAILY).json()
    assert daily["your_attempt"]["score"] == score and daily["your_attempt"]["rank"] == 1
    assert daily["solution"] == {
        "best_score": today_puzzle.best_score,
        "best_move": today_puzzle.best_move,
    }


def test_attempt_score_matches_the_engine_without_seven_tile_bonus(today_puzzle, alice_client):
    response = alice_client.post(
        url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json"
    )
    board = parse_board(today_puzzle.board, parse_layout(today_puzzle.layout))
    expected = check_placement(
        board,
        parse_move(today_puzzle.best_move),
        parse_rack(today_puzzle.rack),
        seven_tile_bonus=False,
    )
    assert response.json()["score"] == expected.score == today_puzzle.best_score
    assert response.json()["percent_of_best"] == 100.0


def test_second_attempt_is_refused(today_puzzle, alice_client):
    move, _ = weaker_legal_move(today_puzzle)
    assert (
        alice_client.post(url(TODAY, "/attempt"), {"move": move}, format="json").status_code == 201
    )
    again = alice_client.post(
        url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json"
    )
    assert_error(again, 409, "already_attempted")
    assert PuzzleAttempt.objects.get().move == move


def _tile(rack_char: str) -> str:
    return "*5" if rack_char == "*" else rack_char


def test_illegal_placement_gets_the_engine_code_and_keeps_the_attempt(today_puzzle, alice_client):
    # Two rack tiles on squares in neither one row nor one column.
    move = f"a1={_tile(today_puzzle.rack[0])} c3={_tile(today_puzzle.rack[1])}"
    board = parse_board(today_puzzle.board, parse_layout(today_puzzle.layout))
    with pytest.raises(IllegalMoveError) as engine:
        check_placement(board, parse_move(move), parse_rack(today_puzzle.rack))
    refused = alice_client.post(url(TODAY, "/attempt"), {"move": move}, format="json")
    error = assert_error(refused, 400, engine.value.code)
    assert error["message"] == engine.value.message
    assert not PuzzleAttempt.objects.exists()
    ok = alice_client.post(url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json")
    assert ok.status_code == 201


@pytest.mark.parametrize("move,code", [("f6=", "bad_notation"), ("pass", "placement_required")])
def test_not_a_placement_does_not_use_up_the_attempt(today_puzzle, alice_client, move, code):
    assert_error(
        alice_client.post(url(TODAY, "/attempt"), {"move": move}, format="json"), 400, code
    )
    assert not PuzzleAttempt.objects.exists()
    ok = alice_client.post(url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json")
    assert ok.status_code == 201


def test_rack_tiles_are_enforced(today_puzzle, alice_client):
    missing = next(d for d in "0123456789" if d not in today_puzzle.rack)
    # Any square: the rack check or a placement rule refuses it, never a 201 or a 500.
    refused = alice_client.post(url(TODAY, "/attempt"), {"move": f"a1={missing}"}, format="json")
    assert refused.status_code == 400


def test_past_and_future_days(today_puzzle, alice_client, clock):
    assert_error(alice_client.get(url(TODAY + timedelta(days=1))), 404, "not_found")
    assert_error(alice_client.get("/api/v1/puzzles/2025-02-30"), 404, "not_found")
    assert_error(alice_client.get(url(TODAY - timedelta(days=400))), 404, "not_found")
    clock.move_to(NOON + timedelta(days=1))
    body = alice_client.get(url(TODAY)).json()
    assert body["open"] is False and body["your_attempt"] is None
    assert body["solution"]["best_move"] == today_puzzle.best_move
    closed = alice_client.post(
        url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json"
    )
    assert_error(closed, 409, "puzzle_closed")
    future = alice_client.post(
        url(TODAY + timedelta(days=2), "/attempt"), {"move": "a1=1"}, format="json"
    )
    assert_error(future, 404, "not_found")


def test_leaderboard_order_ties_by_submission_time(db, clock, user_factory, make_client):
    puzzle = stored_puzzle(TODAY, best_score=40)
    users = [user_factory(f"p{i}", display_name=f"P{i}") for i in range(4)]
    # (user, score, seconds after noon): p1 and p2 tie on 30; p2 submitted first.
    for user, score, second in [(users[0], 40, 30), (users[1], 30, 20), (users[2], 30, 10)]:
        attempt = PuzzleAttempt.objects.create(puzzle=puzzle, user=user, move="x", score=score)
        PuzzleAttempt.objects.filter(pk=attempt.pk).update(
            created_at=NOON + timedelta(seconds=second)
        )
    viewer = make_client(users[0])
    rows = viewer.get(url(TODAY, "/leaderboard")).json()
    assert rows["count"] == 3
    assert [(r["rank"], r["player"], r["score"]) for r in rows["results"]] == [
        (1, "P0", 40),
        (2, "P2", 30),
        (3, "P1", 30),
    ]
    assert [r["percent_of_best"] for r in rows["results"]] == [100.0, 75.0, 75.0]
    # A player who has not played today's puzzle would read the best score off the top row.
    outsider = make_client(users[3])
    error = assert_error(outsider.get(url(TODAY, "/leaderboard")), 409, "attempt_first")
    assert "40" not in json.dumps(error)
    # Once the day is over the leaderboard is open to everyone.
    clock.move_to(NOON + timedelta(days=1))
    past = outsider.get(url(TODAY, "/leaderboard"))
    assert past.status_code == 200, past.content
    assert [r["percent_of_best"] for r in past.json()["results"]] == [100.0, 75.0, 75.0]


def test_rank_so_far_counts_earlier_equal_scores_first(today_puzzle, user_factory, make_client):
    move, score = weaker_legal_move(today_puzzle)
    first, second = (make_client(user_factory()) for _ in range(2))
    assert first.post(url(TODAY, "/attempt"), {"move": move}, format="json").json()["rank"] == 1
    best = second.post(url(TODAY, "/attempt"), {"move": today_puzzle.best_move}, format="json")
    assert best.json()["rank"] == 1
    third = make_client(user_factory()).post(url(TODAY, "/attempt"), {"move": move}, format="json")
    assert third.json()["rank"] == 3 and third.json()["attempt_count"] == 3

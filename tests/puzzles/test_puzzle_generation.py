"""Generation is a pure function of the date, and the stored best is the engine's maximum."""

from __future__ import annotations

from datetime import date

import pytest

from games.crazy10s.engine import (
    check_placement,
    classic_layout,
    format_layout,
    generate_placements,
    parse_board,
    parse_layout,
    parse_move,
    parse_rack,
)
from games.crazy10s.puzzles import generation

DAYS = [date(2025, 1, 1), date(2025, 6, 15), date(2026, 2, 28)]


def _moves(puzzle: generation.GeneratedPuzzle):
    board = parse_board(puzzle.board, parse_layout(puzzle.layout))
    return board, generate_placements(board, parse_rack(puzzle.rack), seven_tile_bonus=False)


@pytest.mark.parametrize("day", DAYS)
def test_same_date_gives_the_same_puzzle(day):
    assert generation.generate_puzzle(day) == generation.generate_puzzle(day)


def test_different_dates_give_different_positions():
    boards = {generation.generate_puzzle(day).board for day in DAYS}
    assert len(boards) == len(DAYS)


@pytest.mark.parametrize("day", DAYS)
def test_best_score_is_the_maximum_of_the_full_move_list(day):
    puzzle = generation.generate_puzzle(day)
    board, moves = _moves(puzzle)
    assert puzzle.best_score == max(m.score for m in moves)
    assert puzzle.legal_move_count == len(moves)
    # The stored best move really scores that much on the position (no seven-tile bonus).
    scored = check_placement(
        board, parse_move(puzzle.best_move), parse_rack(puzzle.rack), seven_tile_bonus=False
    )
    assert scored.score == puzzle.best_score


@pytest.mark.parametrize("day", DAYS)
def test_position_is_an_interesting_11x11_classic_puzzle(day):
    puzzle = generation.generate_puzzle(day)
    assert puzzle.layout == format_layout(classic_layout(11))
    assert len(parse_rack(puzzle.rack)) == 7
    assert parse_board(puzzle.board, parse_layout(puzzle.layout)).tile_count() > 0
    _, moves = _moves(puzzle)
    obvious = max((m.score for m in moves if len(m.move.tiles) <= 2), default=0)
    assert len(moves) >= generation.MIN_LEGAL_MOVES
    assert puzzle.best_score > obvious
    assert puzzle.best_score >= generation.OBVIOUS_FACTOR * obvious


def test_next_attempt_gives_another_position():
    first = generation.generate_puzzle(DAYS[0])
    again = generation.generate_puzzle(DAYS[0], first_attempt=first.attempt + 1)
    assert again.attempt > first.attempt
    assert again.board != first.board


def test_analysis_without_legal_moves_is_none():
    layout = format_layout(classic_layout(11))
    full_row = "/".join(["99999999999"] + ["..........."] * 10)
    assert generation.analyse_notation(full_row, layout, parse_rack("9999999")) is None


def test_the_secret_changes_the_puzzle_so_the_source_alone_cannot_predict_it():
    day = DAYS[0]
    with_a = generation.generate_puzzle(day, secret="a")
    assert generation.generate_puzzle(day, secret="a") == with_a
    assert generation.generate_puzzle(day, secret="b").board != with_a.board

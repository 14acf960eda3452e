"""The move generator gives exactly what the previous one gave (``reference_movegen``, kept here
unchanged as it was before the speed work of issue 28): the same placements in the same order,
with the same scores, lines, bonuses and racks left, in both modes, on seeded mid-game boards
with full racks (the naive cross-check in test_movegen.py only affords small racks)."""

from __future__ import annotations

import random

import pytest

from games.crazy10s.engine import (
    WILD,
    Board,
    classic_layout,
    format_board,
    format_rack,
    generate_placements,
)
from games.crazy10s.engine.rules import apply_placement_to_board

from . import reference_movegen

DIGITS = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9)


def mid_game(rng: random.Random, size: int, moves: int) -> Board:
    """A board after ``moves`` placements of random full racks, each one of the best ten."""
    board = Board.empty(classic_layout(size))
    for _ in range(moves):
        rack = tuple(sorted(rng.choice(DIGITS) for _ in range(7)))
        options = generate_placements(board, rack, best_wilds=True)
        if options:
            options.sort(key=lambda p: -p.score)
            board = apply_placement_to_board(board, rng.choice(options[:10]).move)
    return board


def assert_same(board: Board, rack: tuple[int, ...], **options: object) -> None:
    fast = generate_placements(board, rack, **options)  # type: ignore[arg-type]
    slow = reference_movegen.generate_placements(board, rack, **options)  # type: ignore[arg-type]
    context = f"board {format_board(board)} rack {format_rack(rack)} {options}"
    assert len(fast) == len(slow), context
    for new, old in zip(fast, slow, strict=True):
        # Equality covers the move (its tiles in order), score, lines in order and bonus.
        assert new == old, context
        assert new.rack_after == old.rack_after, context


@pytest.mark.parametrize("seed", range(24))
def test_same_placements_as_the_reference(seed: int) -> None:
    rng = random.Random(f"movegen-reference:{seed}")
    size = 11 if seed % 6 == 5 else 13
    board = mid_game(rng, size, rng.randrange(0, 16))
    for wilds in (0, 1, 2, 3):
        rack = tuple(sorted([WILD] * wilds + [rng.choice(DIGITS) for _ in range(7 - wilds)]))
        bonus = size == 13
        if wilds < 3:  # the full listing with three wilds runs to hundreds of thousands
            assert_same(board, rack, seven_tile_bonus=bonus)
        assert_same(board, rack, seven_tile_bonus=bonus, best_wilds=True)
    if not board.is_empty:
        anchors = frozenset(rng.sample([q for q, c in enumerate(board.cells) if c < 0], 6))
        rack = tuple(sorted([WILD] + [rng.choice(DIGITS) for _ in range(6)]))
        assert_same(board, rack, best_wilds=True, anchors=anchors)

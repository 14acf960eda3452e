"""The players' generation path (best wild digits only) against the full listing."""

from __future__ import annotations

import random

import pytest

from games.crazy10s.engine import (
    WILD,
    Board,
    check_placement,
    classic_layout,
    format_board,
    format_rack,
    generate_placements,
    parse_board,
)
from games.crazy10s.engine.rules import ScoredPlacement

from .test_movegen import SMALL_LAYOUT, random_board, random_rack

Slot = tuple[frozenset[tuple[int, int]], tuple[int, ...]]


def slot(p: ScoredPlacement) -> Slot:
    """The squares a placement covers and the rack tiles it uses."""
    return (
        frozenset((t.col, t.row) for t in p.move.tiles),
        tuple(sorted(t.rack_tile for t in p.move.tiles)),
    )


def assert_best_of_full(board: Board, rack: tuple[int, ...], bonus: bool = True) -> int:
    full = generate_placements(board, rack, seven_tile_bonus=bonus)
    fast = generate_placements(board, rack, seven_tile_bonus=bonus, best_wilds=True)
    context = f"board {format_board(board)} rack {format_rack(rack)}"
    full_set = set(full)
    best_full: dict[Slot, int] = {}
    for p in full:
        best_full[slot(p)] = max(best_full.get(slot(p), -1), p.score)
    best_fast: dict[Slot, int] = {}
    for p in fast:
        best_fast[slot(p)] = max(best_fast.get(slot(p), -1), p.score)
    # Every squares-and-tiles choice is there, with its best score.
    assert best_fast == best_full, context
    if rack.count(WILD) >= 2:  # the wild-symbol search: exactly one result per choice
        assert len(fast) == len(best_fast), context
    for p in fast:
        # A real placement, scored and lined up exactly as the rules say, with the right leave.
        checked = check_placement(board, p.move, rack, seven_tile_bonus=bonus)
        assert p == checked and p.rack_after == checked.rack_after, context
        assert p in full_set
    if full:
        assert max(p.score for p in fast) == max(p.score for p in full)
    if WILD not in rack:
        assert fast == full  # nothing to choose: the same list
    return len(fast)


@pytest.mark.parametrize("seed", range(40))
def test_small_boards_best_wilds(seed: int) -> None:
    rng = random.Random(5000 + seed)
    board = random_board(rng, SMALL_LAYOUT, rng.randrange(0, 8))
    for wilds in (0, 1, 2, 3):
        assert_best_of_full(board, random_rack(rng, rng.choice((3, 4, 5)), wilds))


@pytest.mark.parametrize("seed", range(12))
def test_game_boards_best_wilds(seed: int) -> None:
    rng = random.Random(6000 + seed)
    board = random_board(rng, classic_layout(13), rng.randrange(0, 25))
    for wilds in (1, 2, 3):
        assert_best_of_full(board, random_rack(rng, 6, wilds), bonus=rng.random() < 0.5)


def test_three_wilds_collapse_to_few_placements() -> None:
    # An open board: every wild could be any digit, so the full listing is huge.
    rows = ["." * 13] * 5 + ["....3.2......", "....5.4.1....", "....2.4.9...."] + ["." * 13] * 5
    board = parse_board("/".join(rows))
    rack = (1, 2, 3, 5, WILD, WILD, WILD)
    full = assert_best_of_full(board, rack)
    assert full < len(generate_placements(board, rack)) / 5

"""The fast move generator agrees exactly with the naive brute-force one (moves, scores, lines)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games.crazy10s.engine import (
    WILD,
    Board,
    Layout,
    classic_layout,
    format_board,
    format_move,
    format_rack,
    generate_placements,
    legal_moves,
    new_game_from_seed,
    parse_board,
    parse_layout,
)
from games.crazy10s.engine.rules import apply_placement_to_board

from .naive_movegen import naive_placements

# A small board puts many placements against the edges and keeps the brute force quick.
SMALL_LAYOUT = parse_layout("T..d..T/.D...D./..t.t../d..*..d/..t.t../.D...D./T..d..T")
DIGITS = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9)


def random_rack(rng: random.Random, size: int, wilds: int) -> tuple[int, ...]:
    return tuple(sorted([WILD] * wilds + [rng.choice(DIGITS) for _ in range(size - wilds)]))


def random_board(rng: random.Random, layout: Layout, moves: int) -> Board:
    """A board reached by ``moves`` random legal placements of random racks."""
    board = Board.empty(layout)
    for _ in range(moves):
        options = generate_placements(board, random_rack(rng, 7, rng.choice((0, 0, 1))))
        if options:
            board = apply_placement_to_board(board, rng.choice(options).move)
    return board


def assert_same_as_naive(board: Board, rack: tuple[int, ...], seven_tile_bonus: bool) -> int:
    fast = generate_placements(board, rack, seven_tile_bonus=seven_tile_bonus)
    naive = naive_placements(board, rack, seven_tile_bonus=seven_tile_bonus)
    keys = [frozenset((t.col, t.row, t.digit, t.wild) for t in p.move.tiles) for p in fast]
    context = f"board {format_board(board)} rack {format_rack(rack)}"
    assert len(keys) == len(set(keys)), f"duplicate moves for {context}"
    fast_by_key = dict(zip(keys, fast, strict=True))
    missing = [format_move(naive[k].move) for k in naive.keys() - fast_by_key.keys()]
    extra = [format_move(fast_by_key[k].move) for k in fast_by_key.keys() - naive.keys()]
    assert not missing and not extra, f"{context}: missing {missing[:5]} extra {extra[:5]}"
    for key, scored in fast_by_key.items():
        # Equality covers the move (tiles in reading order), score, lines in order and bonus.
        assert scored == naive[key], f"{context}: {format_move(scored.move)}"
        assert scored.rack_after == naive[key].rack_after
    return len(fast)


@pytest.mark.parametrize("seed", range(60))
def test_small_boards_match_naive(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng, SMALL_LAYOUT, rng.randrange(0, 8))
    for wilds in (0, 1, 2):
        rack = random_rack(rng, rng.choice((3, 4, 5)), wilds)
        assert_same_as_naive(board, rack, seven_tile_bonus=True)


@pytest.mark.parametrize("seed", range(30))
def test_game_boards_match_naive(seed: int) -> None:
    rng = random.Random(1000 + seed)
    board = random_board(rng, classic_layout(13), rng.randrange(1, 20))
    wilds = rng.choice((0, 1, 1, 2))
    rack = random_rack(rng, 3 if wilds == 2 else rng.choice((3, 4)), wilds)
    assert_same_as_naive(board, rack, seven_tile_bonus=True)


@pytest.mark.parametrize("seed", range(20))
def test_puzzle_boards_match_naive(seed: int) -> None:
    rng = random.Random(2000 + seed)
    board = random_board(rng, classic_layout(11), rng.randrange(1, 15))
    rack = random_rack(rng, 4, rng.choice((0, 1)))
    assert_same_as_naive(board, rack, seven_tile_bonus=False)


@pytest.mark.parametrize("seed", range(12))
def test_first_moves_match_naive(seed: int) -> None:
    rng = random.Random(3000 + seed)
    layout = rng.choice((SMALL_LAYOUT, classic_layout(11), classic_layout(13)))
    rack = random_rack(rng, rng.choice((3, 4, 5)), rng.choice((0, 1, 2)))
    count = assert_same_as_naive(Board.empty(layout), rack, seven_tile_bonus=True)
    if WILD in rack:
        assert count > 0  # a wild always completes some pair through the centre


@pytest.mark.parametrize("seed", range(4))
def test_full_racks_match_naive(seed: int) -> None:
    rng = random.Random(4000 + seed)
    board = random_board(rng, SMALL_LAYOUT, rng.randrange(1, 5))
    rack = random_rack(rng, 7, 0)
    assert_same_as_naive(board, rack, seven_tile_bonus=True)


def test_seven_tile_bonus_and_puzzle() -> None:
    board = parse_board("/".join(["." * 13] * 13))
    rack = (0, 0, 1, 1, 2, 2, 4)
    with_bonus = {format_move(p.move): p for p in generate_placements(board, rack)}
    without = {
        format_move(p.move): p
        for p in generate_placements(board, rack, seven_tile_bonus=False)
    }
    sevens = [m for m, p in with_bonus.items() if len(p.move.tiles) == 7]
    assert sevens
    for move in sevens:
        assert with_bonus[move].bonus == 20
        assert with_bonus[move].score == without[move].score + 20


def test_single_zero_scores_nothing_and_singles_appear_once() -> None:
    board = parse_board("/".join(["." * 13] * 6 + ["......55....."] + ["." * 13] * 6))
    moves = [format_move(p.move) for p in generate_placements(board, (0, 3, WILD))]
    assert len(moves) == len(set(moves))
    by_move = {format_move(p.move): p for p in generate_placements(board, (0, 3, WILD))}
    assert by_move["f7=0"].score == 0 and by_move["i7=*0"].score == 0
    assert by_move["f7=0"].lines[0].values == (0, 5, 5)
    assert "f7=*0" in by_move and "g8=*5" in by_move and by_move["g8=*5"].score > 0


def test_rules_example_dn_dl() -> None:
    # docs/rules.md: a new 3 on a DN square and a new 7 on a DL square (here the start square, a DL
    # on the first move) forming the line 3 7 score (3×2 + 7) × 2 = 26.
    layout = parse_layout("/".join(["......."] * 3 + ["..d*..."] + ["......."] * 3))
    by_move = {format_move(p.move): p for p in generate_placements(Board.empty(layout), (3, 7))}
    assert by_move["c4=3 d4=7"].score == 26
    assert by_move["d4=3 e4=7"].score == 20


def test_legal_moves_uses_the_player_to_move_and_stops_when_over() -> None:
    state = new_game_from_seed(7)
    moves = legal_moves(state)
    rack = Counter(state.racks[state.current_player])
    assert moves
    for scored in moves:
        used = Counter(t.rack_tile for t in scored.move.tiles)
        assert not used - rack
    assert legal_moves(replace(state, current_player=None)) == []

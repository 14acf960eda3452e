"""Builders and checks shared by the Crazy10s engine tests (pure engine, no Django)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.crazy10s.engine import (
    EMPTY,
    FULL_BAG,
    Board,
    GameState,
    IllegalMoveError,
    Layout,
    Move,
    Options,
    Pass,
    PlacedTile,
    Placement,
    Swap,
    apply_move,
    check_placement,
    classic_layout,
    new_game_from_seed,
    parse_rack,
)
from games.crazy10s.engine.board import parse_square


def board_from(tiles: dict[str, int], size: int = 13, layout: Layout | None = None,
               wilds: tuple[str, ...] = ()) -> Board:
    """A board holding ``tiles`` ({"g7": 3, ...}) on ``layout`` (classic by default)."""
    layout = layout or classic_layout(size)
    cells = [EMPTY] * (size * size)
    wild_squares = set()
    for name, digit in tiles.items():
        col, row = parse_square(name)
        cells[row * size + col] = digit
        if name in wilds:
            wild_squares.add(row * size + col)
    return Board(layout, tuple(cells), frozenset(wild_squares))


def index_of(name: str, size: int = 13) -> int:
    col, row = parse_square(name)
    return row * size + col


def state_with(
    board: Board | None = None,
    racks: tuple[str, str] = ("1234567", "1234567"),
    bag: tuple[int, ...] | None = None,
    *,
    current: int = 0,
    scores: tuple[int, int] = (0, 0),
    scoreless: int = 0,
    options: Options | None = None,
) -> GameState:
    """A hand-built state; the bag defaults to the tiles not on the board or the racks."""
    options = options or Options()
    board = board or Board.empty(classic_layout(options.size))
    rack_tiles = (parse_rack(racks[0]), parse_rack(racks[1]))
    if bag is None:
        remaining = list(FULL_BAG)
        used = [10 if i in board.wilds else c for i, c in enumerate(board.cells) if c != EMPTY]
        for t in used + list(rack_tiles[0]) + list(rack_tiles[1]):
            remaining.remove(t)
        bag = tuple(remaining)
    base = new_game_from_seed(7, options)
    return replace(
        base,
        board=board,
        racks=rack_tiles,
        bag=tuple(bag),
        scores=scores,
        current_player=current,
        first_player=current,
        move_number=1 if not board.is_empty else 0,
        scoreless_turns=scoreless,
    )


def assert_refused(state: GameState, move: Move | str, code: str) -> IllegalMoveError:
    """``move`` is refused with ``code`` and leaves ``state`` exactly as it was."""
    before = state.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, move)
    assert info.value.code == code, (info.value.code, info.value.message)
    assert info.value.message
    assert state.to_dict() == before
    return info.value


def maximal_lines(board: Board) -> list[tuple[int, ...]]:
    """Values of every maximal run of 2+ tiles in a row or a column."""
    size = board.size
    runs: list[tuple[int, ...]] = []
    for fixed in range(size):
        for coords in (
            [fixed * size + c for c in range(size)],
            [r * size + fixed for r in range(size)],
        ):
            current: list[int] = []
            for i in coords + [None]:
                if i is not None and board.cells[i] != EMPTY:
                    current.append(board.cells[i])
                    continue
                if len(current) > 1:
                    runs.append(tuple(current))
                current = []
    return runs


def _candidates(board: Board, rack: tuple[int, ...], rng: random.Random) -> list[Placement]:
    """Random small placements from ``rack`` next to the tiles already on the board."""
    size = board.size
    occupied = [i for i, c in enumerate(board.cells) if c != EMPTY]
    if not occupied:
        centre = board.layout.centre
        starts = [(centre % size - k, centre // size, True) for k in range(3)]
        starts += [(centre % size, centre // size - k, False) for k in range(3)]
    else:
        starts = []
        for i in rng.sample(occupied, min(12, len(occupied))):
            col, row = i % size, i // size
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                starts.append((col + dc, row + dr, rng.random() < 0.5))
    out = []
    for col, row, across in starts:
        for _ in range(6):
            count = rng.randint(1 if occupied else 2, min(3, len(rack))) if rack else 0
            if count == 0:
                continue
            tiles = rng.sample(list(rack), count)
            placed = []
            for k, tile in enumerate(tiles):
                c, r = (col + k, row) if across else (col, row + k)
                if tile == 10:
                    placed.append(PlacedTile(c, r, rng.randrange(10), wild=True))
                else:
                    placed.append(PlacedTile(c, r, tile))
            out.append(Placement(tuple(placed)))
    return out


def random_move(state: GameState, rng: random.Random) -> Move:
    """A random legal move: a placement if one of the random candidates is legal, else swap/pass."""
    player = state.current_player
    assert player is not None
    rack = state.racks[player]
    for move in _candidates(state.board, rack, rng):
        try:
            check_placement(state.board, move, rack,
                            seven_tile_bonus=state.options.seven_tile_bonus)
        except IllegalMoveError:
            continue
        return move
    if rack and len(state.bag) >= 1 and rng.random() < 0.5:
        k = rng.randint(1, min(len(rack), len(state.bag)))
        return Swap(tuple(rng.sample(list(rack), k)))
    return Pass(timeout=rng.random() < 0.2)


def as_dict(state: GameState) -> dict[str, Any]:
    return state.to_dict()

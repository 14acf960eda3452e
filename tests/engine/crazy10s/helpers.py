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


def _placed(col: int, row: int, tile: int, rng: random.Random) -> PlacedTile:
    if tile == 10:
        return PlacedTile(col, row, rng.randrange(10), wild=True)
    return PlacedTile(col, row, tile)


def _candidates(board: Board, rack: tuple[int, ...], rng: random.Random) -> list[Placement]:
    """Candidate placements from ``rack`` near the tiles on the board, most of them legal-ish.

    Every (empty neighbour square, rack tile) pair is a single-tile candidate; runs of 2-3 tiles
    starting next to a tile are sampled at random. Not exhaustive: the move generator's job.
    """
    size = board.size
    occupied = [i for i, c in enumerate(board.cells) if c != EMPTY]
    if not occupied:
        centre = board.layout.centre
        starts = [(centre % size - k, centre // size, True) for k in range(3)]
        starts += [(centre % size, centre // size - k, False) for k in range(3)]
        singles: list[Placement] = []
    else:
        starts, singles = [], []
        neighbours = set()
        for i in occupied:
            col, row = i % size, i // size
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                c, r = col + dc, row + dr
                if 0 <= c < size and 0 <= r < size and board.cells[r * size + c] == EMPTY:
                    neighbours.add((c, r))
        for c, r in sorted(neighbours):
            for tile in set(rack):
                singles.append(Placement((_placed(c, r, tile, rng),)))
            for k in range(3):
                starts.append((c - k, r, True))
                starts.append((c, r - k, False))
        rng.shuffle(singles)
    runs = []
    for col, row, across in rng.sample(starts, min(len(starts), 40)):
        for _ in range(4):
            count = rng.randint(2, min(3, len(rack))) if len(rack) >= 2 else 0
            if count == 0:
                continue
            tiles = rng.sample(list(rack), count)
            cells = [((col + k, row) if across else (col, row + k)) for k in range(count)]
            runs.append(Placement(tuple(
                _placed(c, r, t, rng) for (c, r), t in zip(cells, tiles, strict=True)
            )))
    return runs + singles


def random_move(state: GameState, rng: random.Random) -> Move:
    """A random legal move: a placement if a candidate is legal, else a swap or a pass."""
    player = state.current_player
    assert player is not None
    rack = state.racks[player]
    scoreless: Placement | None = None
    for move in _candidates(state.board, rack, rng):
        try:
            scored = check_placement(state.board, move, rack,
                                     seven_tile_bonus=state.options.seven_tile_bonus)
        except IllegalMoveError:
            continue
        if scored.score > 0:
            return move
        scoreless = scoreless or move
    if scoreless is not None and rng.random() < 0.5:
        return scoreless
    if rack and len(state.bag) >= 1 and rng.random() < 0.7:
        k = rng.randint(1, min(len(rack), len(state.bag)))
        return Swap(tuple(rng.sample(list(rack), k)))
    return Pass(timeout=rng.random() < 0.2)


def as_dict(state: GameState) -> dict[str, Any]:
    return state.to_dict()

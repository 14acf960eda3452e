"""A deliberately naive move generator: the reference the fast generator is tested against.

It tries every straight segment of every row and column whose end squares are empty, every
ordering of rack tiles on the segment's empty squares and every digit for each wild, and keeps
what ``check_placement`` accepts. The only shortcut is one that cannot lose a legal move: a
segment none of whose empty squares touches a tile (or the centre, on an empty board) is skipped,
because ``check_placement`` refuses such placements anyway (not_connected / first_move_centre).
"""

from __future__ import annotations

from itertools import permutations, product

from games.crazy10s.engine import (
    EMPTY,
    WILD,
    Board,
    IllegalMoveError,
    PlacedTile,
    Placement,
    ScoredPlacement,
    check_placement,
)


def _touches(board: Board, squares: list[int]) -> bool:
    size, cells = board.size, board.cells
    if board.is_empty:
        return board.layout.centre in squares
    for q in squares:
        row, col = divmod(q, size)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < size and 0 <= c < size and cells[r * size + c] != EMPTY:
                return True
    return False


def naive_placements(
    board: Board, rack: tuple[int, ...], *, seven_tile_bonus: bool = True
) -> dict[frozenset, ScoredPlacement]:
    """Every legal placement, keyed by its set of (square, digit, wild) so duplicates merge."""
    size, cells = board.size, board.cells
    found: dict[frozenset, ScoredPlacement] = {}
    orders = {k: set(permutations(rack, k)) for k in range(1, len(rack) + 1)}
    lines = [[r * size + c for c in range(size)] for r in range(size)]
    lines += [[r * size + c for r in range(size)] for c in range(size)]
    for line in lines:
        for a in range(size):
            for b in range(a, size):
                segment = line[a : b + 1]
                if cells[segment[0]] != EMPTY or cells[segment[-1]] != EMPTY:
                    continue
                empties = [q for q in segment if cells[q] == EMPTY]
                if len(empties) > len(rack) or not _touches(board, empties):
                    continue
                first, last = a, b
                while first > 0 and cells[line[first - 1]] != EMPTY:
                    first -= 1
                while last < size - 1 and cells[line[last + 1]] != EMPTY:
                    last += 1
                is_line = last > first
                existing = sum(cells[q] for q in line[first : last + 1] if cells[q] != EMPTY)
                for order in orders[len(empties)]:
                    wild_count = order.count(WILD)
                    fixed = existing + sum(t for t in order if t != WILD)
                    for wild_digits in product(range(10), repeat=wild_count):
                        if is_line and fixed + sum(wild_digits) != 10:
                            continue
                        digits = iter(wild_digits)
                        tiles = []
                        for q, tile in zip(empties, order, strict=True):
                            row, col = divmod(q, size)
                            if tile == WILD:
                                tiles.append(PlacedTile(col, row, next(digits), True))
                            else:
                                tiles.append(PlacedTile(col, row, tile, False))
                        try:
                            scored = check_placement(
                                board, Placement(tuple(tiles)), rack,
                                seven_tile_bonus=seven_tile_bonus,
                            )
                        except IllegalMoveError:
                            continue
                        key = frozenset((t.col, t.row, t.digit, t.wild) for t in tiles)
                        found[key] = scored
    return found

"""Board geometry, square names, bonus layouts and board notation.

Squares are indices ``row * size + col`` with row 0 at the top, named like chess squares:
column letter from the left, row number from the top (``g7`` is the centre of 13×13).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache

from .errors import IllegalMoveError

EMPTY = -1

PLAIN, DN, TN, DL, TL, START = ".", "d", "t", "D", "T", "*"
BONUS_KINDS = (DN, TN, DL, TL, START)
NUMBER_MULTIPLIER = {DN: 2, TN: 3}
LINE_MULTIPLIER = {DL: 2, TL: 3}
BONUS_NAMES = {DN: "DN", TN: "TN", DL: "DL", TL: "TL", START: "★"}

CLASSIC_LAYOUTS: dict[int, str] = {
    13: (
        "T..d..T..d..T/.D...t.t...D./....d...d..../d..D..d..D..d/..d.......d../"
        ".t...d.d...t./T..d..*..d..T/.t...d.d...t./..d.......d../d..D..d..D..d/"
        "....d...d..../.D...t.t...D./T..d..T..d..T"
    ),
    11: (
        "T.d..T..d.T/.D..t.t..D./d....d....d/...D...D.../.t.......t./T.d..*..d.T/"
        ".t.......t./...D...D.../d....d....d/.D..t.t..D./T.d..T..d.T"
    ),
}
GAME_SIZE = 13
PUZZLE_SIZE = 11

_SQUARE_RE = re.compile(r"^([a-z])([1-9][0-9]?)$")


def square_name(index: int, size: int) -> str:
    row, col = divmod(index, size)
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """``g7`` → (col, row), zero-based. Bounds are checked against a board by the rules."""
    match = _SQUARE_RE.match(text)
    if not match:
        raise IllegalMoveError("bad_notation", f"'{text}' is not a square name such as g7.")
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


def format_square(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


@dataclass(frozen=True, slots=True)
class Layout:
    """Bonus squares of a board: ``kinds[i]`` is one of ``. d t D T *`` for square ``i``."""

    size: int
    kinds: str

    @property
    def centre(self) -> int:
        return (self.size // 2) * self.size + self.size // 2

    def bonus_squares(self) -> tuple[tuple[str, str], ...]:
        """(square name, kind name) for every bonus square, in reading order."""
        return _bonus_squares(self.size, self.kinds)


@lru_cache(maxsize=32)
def _bonus_squares(size: int, kinds: str) -> tuple[tuple[str, str], ...]:
    # Every view of a game lists them (twice in a move's answer): worked out once per layout.
    return tuple(
        (square_name(i, size), BONUS_NAMES[k]) for i, k in enumerate(kinds) if k != PLAIN
    )


def parse_layout(text: str) -> Layout:
    rows = text.strip().split("/")
    size = len(rows)
    if size < 3 or any(len(r) != size for r in rows) or size > 26:
        raise IllegalMoveError("bad_notation", "A layout is N rows of N squares separated by '/'.")
    kinds = "".join(rows)
    if set(kinds) - {PLAIN, *BONUS_KINDS}:
        raise IllegalMoveError("bad_notation", "Layout squares are one of . d t D T *.")
    return Layout(size, kinds)


def format_layout(layout: Layout) -> str:
    s = layout.size
    return "/".join(layout.kinds[r * s : (r + 1) * s] for r in range(s))


def classic_layout(size: int) -> Layout:
    try:
        return parse_layout(CLASSIC_LAYOUTS[size])
    except KeyError:
        message = f"There is no classic {size}×{size} layout."
        raise IllegalMoveError("bad_notation", message) from None


def _symmetry_orbits(size: int) -> list[list[int]]:
    """Squares grouped by the eight symmetries of the square (rotations and reflections)."""
    seen: set[int] = set()
    orbits = []
    n = size - 1
    for row in range(size):
        for col in range(size):
            if row * size + col in seen:
                continue
            images = {
                (r, c)
                for r, c in (
                    (row, col), (col, n - row), (n - row, n - col), (n - col, row),
                    (row, n - col), (n - row, col), (col, row), (n - col, n - row),
                )
            }
            orbit = sorted(r * size + c for r, c in images)
            seen.update(orbit)
            orbits.append(orbit)
    return orbits


def random_layout(size: int, rng: random.Random) -> Layout:
    """A layout with the classic counts of each kind, all eight symmetries, TL corners, ★ centre.

    The classic layout is symmetric, so each symmetry orbit has one kind; shuffling the kinds
    among orbits of equal size keeps every count and every symmetry.
    """
    classic = classic_layout(size)
    kinds = list(classic.kinds)
    fixed = {0, classic.centre}
    by_size: dict[int, list[list[int]]] = {}
    for orbit in _symmetry_orbits(size):
        if not fixed.intersection(orbit):
            by_size.setdefault(len(orbit), []).append(orbit)
    for orbits in by_size.values():
        orbit_kinds = [classic.kinds[o[0]] for o in orbits]
        rng.shuffle(orbit_kinds)
        for orbit, kind in zip(orbits, orbit_kinds, strict=True):
            for square in orbit:
                kinds[square] = kind
    return Layout(size, "".join(kinds))


@dataclass(frozen=True, slots=True)
class Board:
    """Tiles on the board: ``cells[i]`` is the digit on square ``i`` or ``EMPTY``.

    ``wilds`` holds the squares whose tile is a wild played as that digit; the rules treat it
    as the digit, but tile conservation and the history need to know it was a wild.
    """

    layout: Layout
    cells: tuple[int, ...]
    wilds: frozenset[int] = frozenset()

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def is_empty(self) -> bool:
        return all(c == EMPTY for c in self.cells)

    @classmethod
    def empty(cls, layout: Layout) -> Board:
        return cls(layout, (EMPTY,) * (layout.size * layout.size))

    def tile_count(self) -> int:
        return sum(1 for c in self.cells if c != EMPTY)


def parse_board(text: str, layout: Layout | None = None) -> Board:
    """Board notation: rows top to bottom separated by '/', '.' empty, a digit for a tile."""
    rows = text.strip().split("/")
    size = len(rows)
    if any(len(r) != size for r in rows):
        raise IllegalMoveError("bad_notation", "A board is N rows of N squares separated by '/'.")
    if layout is None:
        layout = classic_layout(size)
    if layout.size != size:
        raise IllegalMoveError("bad_notation", "The board and the layout differ in size.")
    cells = []
    for ch in "".join(rows):
        if ch == ".":
            cells.append(EMPTY)
        elif ch.isdigit():
            cells.append(int(ch))
        else:
            raise IllegalMoveError("bad_notation", f"'{ch}' is not a board square: use . or 0-9.")
    return Board(layout, tuple(cells))


def format_board(board: Board) -> str:
    return "/".join(format_board_rows(board))


def format_board_rows(board: Board) -> list[str]:
    s = board.size
    chars = ["." if c == EMPTY else str(c) for c in board.cells]
    return ["".join(chars[r * s : (r + 1) * s]) for r in range(s)]

"""Move types and their notation (RULES.md): ``g7=3 h7=*7``, ``pass``, ``swap 3 5 *``, ``resign``.

Moves are small frozen values independent of the board size; squares are (col, row) pairs so an
off-board square can still be parsed and then refused with ``off_board`` by the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import format_square, parse_square
from .errors import IllegalMoveError
from .tiles import WILD, format_tile, parse_tile


@dataclass(frozen=True, slots=True)
class PlacedTile:
    col: int
    row: int
    digit: int | None  # None only for a wild whose digit was not given (refused by the rules)
    wild: bool = False

    @property
    def rack_tile(self) -> int:
        """The rack tile this placement uses up."""
        return WILD if self.wild else (self.digit if self.digit is not None else WILD)


@dataclass(frozen=True, slots=True)
class Placement:
    tiles: tuple[PlacedTile, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    timeout: bool = False  # a turn whose deadline passed, played by the service


@dataclass(frozen=True, slots=True)
class Swap:
    tiles: tuple[int, ...]  # rack tiles returned to the bag


@dataclass(frozen=True, slots=True)
class Resign:
    player: int | None = None  # None: the player to move; a game may be resigned at any time


Move = Placement | Pass | Swap | Resign

# Fast constructors for the move generator, which builds tens of thousands of these per call: a
# frozen dataclass's __init__ sets every field through object.__setattr__, several times slower
# than storing into the slots directly. The objects are the same (frozen, equal, hashable).
_new = object.__new__
_set_col, _set_row, _set_digit, _set_wild = (
    PlacedTile.__dict__[name].__set__ for name in ("col", "row", "digit", "wild")
)
_set_tiles = Placement.__dict__["tiles"].__set__


def new_placed_tile(col: int, row: int, digit: int, wild: bool) -> PlacedTile:
    """``PlacedTile(col, row, digit, wild)``, built without the frozen-field setter."""
    tile = _new(PlacedTile)
    _set_col(tile, col)
    _set_row(tile, row)
    _set_digit(tile, digit)
    _set_wild(tile, wild)
    return tile


def new_placement(tiles: tuple[PlacedTile, ...]) -> Placement:
    """``Placement(tiles)``, built without the frozen-field setter."""
    move = _new(Placement)
    _set_tiles(move, tiles)
    return move

_PLACED_RE = re.compile(r"^([a-z][0-9]{1,2})=(\*?)([0-9]?)$")


def parse_placed_tile(token: str) -> PlacedTile:
    match = _PLACED_RE.match(token)
    if not match or not (match.group(2) or match.group(3)):
        raise IllegalMoveError(
            "bad_notation", f"'{token}' is not a tile placement such as g7=3 or h7=*7."
        )
    col, row = parse_square(match.group(1))
    digit = int(match.group(3)) if match.group(3) else None
    return PlacedTile(col, row, digit, wild=bool(match.group(2)))


def parse_move(text: str) -> Move:
    tokens = text.strip().lower().split()
    if not tokens:
        raise IllegalMoveError("bad_notation", "The move is empty.")
    head = tokens[0]
    if head == "pass" and len(tokens) == 1:
        return Pass()
    if head == "resign" and len(tokens) == 1:
        return Resign()
    if head == "swap":
        tiles = tuple(parse_tile(ch) for token in tokens[1:] for ch in token)
        if not tiles:
            raise IllegalMoveError("bad_notation", "Name the tiles to swap, e.g. 'swap 3 5 *'.")
        return Swap(tiles)
    return Placement(tuple(parse_placed_tile(t) for t in tokens))


def format_placed_tile(tile: PlacedTile) -> str:
    digit = "" if tile.digit is None else str(tile.digit)
    return f"{format_square(tile.col, tile.row)}={'*' if tile.wild else ''}{digit}"


def format_move(move: Move) -> str:
    if isinstance(move, Placement):
        return " ".join(format_placed_tile(t) for t in move.tiles)
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Swap):
        return "swap " + " ".join(format_tile(t) for t in move.tiles)
    if isinstance(move, Resign):
        return "resign"
    raise TypeError(f"not a move: {move!r}")


def sorted_placement(move: Placement) -> Placement:
    """The same placement with tiles in reading order (a canonical form for comparisons)."""
    return Placement(tuple(sorted(move.tiles, key=lambda t: (t.row, t.col))))

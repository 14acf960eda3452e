"""Legality of a placement and the lines it forms (RULES.md, "Lines and legal placements").

``check_placement`` is the single authority: the move generator is tested against it, and the
game state calls it for every placement that is not the generator's own.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from typing import Any, cast

from .board import EMPTY, Board, square_name
from .errors import IllegalMoveError
from .moves import Placement
from .scoring import TARGET_SUM, line_score, placement_bonus
from .tiles import RACK_SIZE, remove_tiles

ACROSS, DOWN = "across", "down"


@dataclass(frozen=True, slots=True)
class Line:
    direction: str
    squares: tuple[int, ...]
    values: tuple[int, ...]
    score: int

    def describe(self, size: int) -> str:
        return f"{square_name(self.squares[0], size)}-{square_name(self.squares[-1], size)}"

    def to_dict(self, size: int) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "start": square_name(self.squares[0], size),
            "end": square_name(self.squares[-1], size),
            "values": list(self.values),
            "score": self.score,
        }


class ScoredPlacement:
    """A legal placement with its score, the lines it forms (in ``check_placement`` order), the
    seven-tile bonus and the rack left. A frozen value: equal and hashed by move, score, lines
    and bonus (not ``rack_after``), like the frozen dataclass it replaces.

    ``lines`` may be built on first access: the move generator returns up to ~20,000 placements
    of which callers look at the lines of very few, so it stores a recipe (``_pending``: a
    callable and its arguments) instead of building the Line objects up front.
    """

    __slots__ = ("move", "score", "_lines", "bonus", "rack_after", "_pending")
    __match_args__ = ("move", "score", "lines", "bonus", "rack_after")

    move: Placement
    score: int
    _lines: tuple[Line, ...] | None  # None while ``_pending`` holds its recipe
    bonus: int
    rack_after: tuple[int, ...]
    _pending: tuple[Any, ...] | None

    def __init__(
        self,
        move: Placement,
        score: int,
        lines: tuple[Line, ...],
        bonus: int = 0,
        rack_after: tuple[int, ...] = (),
    ) -> None:
        for name, value in (
            ("move", move), ("score", score), ("_lines", lines), ("bonus", bonus),
            ("rack_after", rack_after), ("_pending", None),
        ):
            object.__setattr__(self, name, value)

    @property
    def lines(self) -> tuple[Line, ...]:
        pending = self._pending
        if pending is not None:  # built once; the value never changes afterwards
            build, *args = pending
            object.__setattr__(self, "_lines", build(self.move, *args))
            object.__setattr__(self, "_pending", None)
        lines = self._lines
        assert lines is not None  # given, or built above from the recipe
        return lines

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _key(self) -> tuple[Placement, int, tuple[Line, ...], int]:
        return (self.move, self.score, self.lines, self.bonus)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == cast(ScoredPlacement, other)._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"ScoredPlacement(move={self.move!r}, score={self.score!r}, lines={self.lines!r}, "
            f"bonus={self.bonus!r}, rack_after={self.rack_after!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScoredPlacement, (self.move, self.score, self.lines, self.bonus, self.rack_after))

    def lines_dicts(self, size: int) -> list[dict[str, Any]]:
        return [line.to_dict(size) for line in self.lines]


# Fast constructors for the move generator (see moves.new_placement for why).
_new = object.__new__
_line_setters = tuple(
    Line.__dict__[name].__set__
    for name in ("direction", "squares", "values", "score")
)
_scored_setters = tuple(
    ScoredPlacement.__dict__[name].__set__
    for name in ("move", "score", "_lines", "bonus", "rack_after", "_pending")
)


def new_line(
    direction: str,
    squares: tuple[int, ...],
    values: tuple[int, ...],
    score: int,
    _setters: tuple[Any, ...] = _line_setters,
) -> Line:
    """``Line(direction, squares, values, score)``, built without the frozen-field setter."""
    line = _new(Line)
    set_direction, set_squares, set_values, set_score = _setters
    set_direction(line, direction)
    set_squares(line, squares)
    set_values(line, values)
    set_score(line, score)
    return line


def new_scored_placement(
    move: Placement,
    score: int,
    lines: tuple[Line, ...] | None,
    bonus: int,
    rack_after: tuple[int, ...],
    pending: tuple[Any, ...] | None = None,
    _setters: tuple[Any, ...] = _scored_setters,
) -> ScoredPlacement:
    """``ScoredPlacement(...)`` built without the frozen-field setter. With ``lines=None`` and
    ``pending=(build, *args)``, ``lines`` is ``build(move, *args)``, built on first access."""
    scored = _new(ScoredPlacement)
    set_move, set_score, set_lines, set_bonus, set_rack_after, set_pending = _setters
    set_move(scored, move)
    set_score(scored, score)
    set_lines(scored, lines)
    set_bonus(scored, bonus)
    set_rack_after(scored, rack_after)
    set_pending(scored, pending)
    return scored


def line_through(
    board: Board, new: dict[int, int], square: int, direction: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The maximal run of tiles through ``square`` (squares, values); length 1 means no line."""
    size = board.size
    cells = board.cells
    step = 1 if direction == ACROSS else size

    def occupied(i: int) -> bool:
        return i in new or cells[i] != EMPTY

    def can_step(i: int, delta: int) -> bool:
        if direction == ACROSS:
            c = i % size + delta
            return 0 <= c < size
        r = i // size + delta
        return 0 <= r < size

    start = square
    while can_step(start, -1) and occupied(start - step):
        start -= step
    end = square
    while can_step(end, 1) and occupied(end + step):
        end += step
    squares = tuple(range(start, end + 1, step))
    values = tuple(new[i] if i in new else cells[i] for i in squares)
    return squares, values


def check_placement(
    board: Board,
    move: Placement,
    rack: tuple[int, ...],
    *,
    seven_tile_bonus: bool = True,
) -> ScoredPlacement:
    """Score ``move`` on ``board`` from ``rack``, or raise ``IllegalMoveError``."""
    size = board.size
    tiles = move.tiles
    if not tiles:
        raise IllegalMoveError("bad_notation", "A placement needs at least one tile.")
    if len(tiles) > RACK_SIZE:
        raise IllegalMoveError(
            "too_many_tiles", f"At most {RACK_SIZE} tiles can be placed in one move."
        )
    new: dict[int, int] = {}
    for tile in tiles:
        name = f"{chr(ord('a') + tile.col)}{tile.row + 1}"
        if not (0 <= tile.col < size and 0 <= tile.row < size):
            raise IllegalMoveError("off_board", f"{name} is off the board.", {"square": name})
        index = tile.row * size + tile.col
        if index in new:
            raise IllegalMoveError(
                "duplicate_square", f"{name} is used twice in this move.", {"square": name}
            )
        if board.cells[index] != EMPTY:
            raise IllegalMoveError("occupied", f"{name} already holds a tile.", {"square": name})
        if tile.digit is None:
            raise IllegalMoveError(
                "wild_value_required",
                f"Choose the digit the wild on {name} stands for, e.g. {name}=*7.",
                {"square": name},
            )
        if not 0 <= tile.digit <= 9:
            raise IllegalMoveError("bad_notation", f"{tile.digit} is not a digit.")
        new[index] = tile.digit

    rack_after = remove_tiles(rack, (t.rack_tile for t in tiles))
    if rack_after is None:
        raise IllegalMoveError("not_in_rack", "Your rack does not hold those tiles.")

    rows = {t.row for t in tiles}
    cols = {t.col for t in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError(
            "not_in_line", "All tiles of a move must lie in one row or in one column."
        )

    squares = sorted(new)
    direction = ACROSS if len(rows) == 1 else DOWN
    step = 1 if direction == ACROSS else size
    for i in range(squares[0], squares[-1], step):
        if i not in new and board.cells[i] == EMPTY:
            raise IllegalMoveError(
                "gap",
                f"{square_name(i, size)} is empty: the placed tiles must not leave a gap.",
                {"square": square_name(i, size)},
            )

    first_move = board.is_empty
    if first_move:
        if len(tiles) < 2:
            raise IllegalMoveError(
                "first_move_too_short", "The first move must place at least two tiles."
            )
        centre = board.layout.centre
        if centre not in new:
            raise IllegalMoveError(
                "first_move_centre",
                f"The first move must cover the centre square {square_name(centre, size)}.",
            )

    directions = (ACROSS, DOWN) if len(tiles) == 1 else (direction,)
    lines: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
    for d in directions:
        run, values = line_through(board, new, squares[0], d)
        if len(run) > 1:
            lines.append((d, run, values))
    if not lines:
        name = square_name(squares[0], size)
        raise IllegalMoveError(
            "isolated_tile", f"The tile on {name} forms no line.", {"square": name}
        )
    if len(tiles) > 1:
        cross = DOWN if direction == ACROSS else ACROSS
        for square in squares:
            run, values = line_through(board, new, square, cross)
            if len(run) > 1:
                lines.append((cross, run, values))
    if not first_move:
        # Cross lines count too: a row placed parallel to a line touches it only through them.
        touches = any(i not in new for _, run, _ in lines for i in run)
        if not touches:
            raise IllegalMoveError(
                "not_connected", "The move must touch a tile already on the board."
            )

    scored: list[Line] = []
    single_zero = len(tiles) == 1 and tiles[0].digit == 0
    for d, run, values in lines:
        total = sum(values)
        if total != TARGET_SUM:
            line = Line(d, run, values, 0)
            raise IllegalMoveError(
                "bad_sum",
                f"The line {line.describe(size)} adds up to {total}, not {TARGET_SUM}.",
                {"line": line.to_dict(size) | {"sum": total}},
            )
        points = 0 if single_zero else line_score(run, values, new, board.layout.kinds, first_move)
        scored.append(Line(d, run, values, points))

    bonus = placement_bonus(len(tiles), seven_tile_bonus)
    score = sum(line.score for line in scored) + bonus
    return ScoredPlacement(move, score, tuple(scored), bonus, rack_after)


def apply_placement_to_board(board: Board, move: Placement) -> Board:
    """The board with ``move``'s tiles added (no checks: call ``check_placement`` first)."""
    cells = list(board.cells)
    wilds = set(board.wilds)
    size = board.size
    for tile in move.tiles:
        index = tile.row * size + tile.col
        assert tile.digit is not None
        cells[index] = tile.digit
        if tile.wild:
            wilds.add(index)
    return Board(board.layout, tuple(cells), frozenset(wilds))

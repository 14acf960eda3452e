"""The board drawn as an HTML grid for staff pages: the game admin and the Daily Puzzle admin
share this one drawing (template ``admin/games/game/board.html``)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games.crazy10s.engine import EMPTY, WILD
from games.crazy10s.engine.board import BONUS_NAMES, Board, square_name

# Layout kind -> CSS class of the square (colours are in the template).
_BONUS_CSS = {"d": "dn", "t": "tn", "D": "dl", "T": "tl", "*": "star"}


def grid_cells(board: Board) -> list[list[dict[str, Any]]]:
    """Rows of cells for the template: square name, bonus kind, tile text, wild or not."""
    size = board.size
    rows = []
    for row in range(size):
        cells = []
        for col in range(size):
            index = row * size + col
            tile = board.cells[index]
            kind = board.layout.kinds[index]
            cells.append({
                "square": square_name(index, size),
                "bonus": BONUS_NAMES.get(kind, ""),
                "css": _BONUS_CSS.get(kind, ""),
                "tile": "" if tile == EMPTY else str(tile),
                "wild": index in board.wilds or tile == WILD,
            })
        rows.append(cells)
    return rows


def render_board(board: Board, *, compact: bool = False) -> str:
    """The grid as safe HTML; ``compact`` draws small squares without the legend (lists)."""
    return render_to_string(
        "admin/games/game/board.html", {"grid": grid_cells(board), "compact": compact}
    )

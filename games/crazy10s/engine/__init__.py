"""Crazy10s rules engine: pure Python, no Django/Celery/Redis, no clock, no global randomness.

The public API mirrors python-chess: frozen move types with ``parse_move``/``format_move``,
``legal_moves``, ``validate_move`` raising ``IllegalMoveError`` with a stable ``code``,
``apply_move`` returning a new state, ``outcome`` with a ``Termination`` and
``GameState.to_dict``/``from_dict``.
"""

from .board import (
    EMPTY,
    Board,
    Layout,
    classic_layout,
    format_board,
    format_layout,
    parse_board,
    parse_layout,
    random_layout,
    square_name,
)
from .errors import ERROR_CODES, IllegalMoveError
from .movegen import generate_placements, legal_moves
from .moves import (
    Move,
    Pass,
    PlacedTile,
    Placement,
    Resign,
    Swap,
    format_move,
    parse_move,
    sorted_placement,
)
from .players import LEVEL_INFO, LEVELS, computer_choice, computer_move
from .rules import Line, ScoredPlacement, check_placement
from .state import (
    GameState,
    MoveResult,
    Options,
    Outcome,
    Termination,
    apply_generated,
    apply_move,
    new_game,
    new_game_from_seed,
    outcome,
    replay,
    replay_notation,
    tiles_in_play,
    validate_move,
)
from .tiles import FULL_BAG, WILD, format_rack, parse_rack, rack_value
from .view import view_for

__all__ = [
    "EMPTY", "ERROR_CODES", "FULL_BAG", "WILD", "Board", "GameState", "IllegalMoveError",
    "LEVELS", "LEVEL_INFO", "Layout", "Line", "Move", "MoveResult", "Options", "Outcome", "Pass",
    "PlacedTile",
    "Placement", "Resign", "ScoredPlacement", "Swap", "Termination", "apply_generated",
    "apply_move", "check_placement", "classic_layout", "computer_choice",
    "computer_move", "format_board", "format_layout",
    "format_move", "format_rack", "generate_placements", "legal_moves", "new_game",
    "new_game_from_seed", "outcome", "parse_board",
    "parse_layout", "parse_move", "parse_rack", "random_layout", "rack_value", "replay",
    "replay_notation", "sorted_placement", "square_name", "tiles_in_play", "validate_move",
    "view_for",
]

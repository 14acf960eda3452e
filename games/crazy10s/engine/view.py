"""What one player may see of a game: never the bag order, the opponent's rack or the seed."""

from __future__ import annotations

from typing import Any

from .board import format_board_rows, format_layout
from .state import GameState
from .tiles import format_tile


def view_for(state: GameState, player: int) -> dict[str, Any]:
    """The position as seen by ``player`` (0 or 1). Final racks are shown once the game is over."""
    opponent = 1 - player
    view: dict[str, Any] = {
        "board": format_board_rows(state.board),
        "layout": format_layout(state.board.layout),
        "bonus_squares": [
            {"square": name, "kind": kind} for name, kind in state.board.layout.bonus_squares()
        ],
        "rack": [format_tile(t) for t in state.racks[player]],
        "opponent_rack_size": len(state.racks[opponent]),
        "bag_size": len(state.bag),
        "scores": {"you": state.scores[player], "opponent": state.scores[opponent]},
        "your_turn": state.current_player == player,
        "move_number": state.move_number,
        "scoreless_turns": state.scoreless_turns,
        "game_over": state.is_over,
    }
    if state.result is not None:
        view["final_racks"] = {
            "you": [format_tile(t) for t in state.racks[player]],
            "opponent": [format_tile(t) for t in state.racks[opponent]],
        }
        winner = state.result.winner
        view["result"] = {
            "termination": state.result.termination.value,
            "outcome": "draw" if winner is None else ("win" if winner == player else "loss"),
            "adjustments": {
                "you": state.result.adjustments[player],
                "opponent": state.result.adjustments[opponent],
            },
        }
    return view

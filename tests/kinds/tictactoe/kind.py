"""Tic-tac-toe as a game kind (tests only): the required members of ``GameKind``, a preview,
a computer that plays the first free square, and its own web widget."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from django.utils.html import format_html

from games.kinds.base import (
    DRAW,
    LOSS,
    WIN,
    GameKind,
    GameOutcome,
    MoveRecord,
    PlayedMove,
    Preview,
    StateSummary,
    WebPage,
)
from tests.kinds.tictactoe import engine, serializers


class TicTacToeKind(GameKind):
    name: ClassVar[str] = "tictactoe"
    title: ClassVar[Any] = "Tic-tac-toe"
    seats: ClassVar[range] = range(2, 3)
    levels: ClassVar[tuple[str, ...]] = ("first",)
    move_kinds: ClassVar[tuple[str, ...]] = ("place", "resign", "timeout")
    terminations: ClassVar[tuple[str, ...]] = tuple(t.value for t in engine.Termination)
    IllegalMove: ClassVar[type[Exception]] = engine.IllegalMoveError
    options_input: ClassVar[type] = serializers.TicTacToeOptionsSerializer
    move_input: ClassVar[type] = serializers.TicTacToeMoveSerializer
    position_output: ClassVar[type] = serializers.TicTacToePositionSerializer
    move_output: ClassVar[type] = serializers.TicTacToePlayedSerializer
    preview_output: ClassVar[type] = serializers.TicTacToePreviewSerializer
    web: ClassVar[WebPage] = WebPage(page="tictactoe/game.html", panel="tictactoe/panel.html")

    def options(self, **validated: Any) -> dict[str, Any]:
        return {}

    def new_state(self, *, seed: int, options: dict[str, Any], seats: int) -> engine.State:
        return engine.State()

    def load(self, data: dict[str, Any]) -> engine.State:
        return engine.State.from_dict(data)

    def dump(self, state: engine.State) -> dict[str, Any]:
        return state.to_dict()

    def summary(self, state: engine.State) -> StateSummary:
        outcome = None
        if state.outcome is not None:
            winner = state.outcome.winner
            outcome = GameOutcome(
                termination=state.outcome.termination.value,
                winners=() if winner is None else (winner,),
                scores=tuple(1 if seat == winner else 0 for seat in (0, 1)),
                adjustments=(0, 0),
                results=tuple(DRAW if winner is None else WIN if seat == winner else LOSS
                              for seat in (0, 1)),
            )
        return StateSummary(
            move_number=state.move_number,
            to_move=state.to_move,
            scores=tuple(1 if state.outcome and state.outcome.winner == s else 0 for s in (0, 1)),
            private=({}, {}),
            piece_counts=(0, 0),
            outcome=outcome,
        )

    def parse(self, data: dict[str, Any]) -> engine.Move:
        return engine.parse_move(data["square"])

    def parse_notation(self, notation: str) -> engine.Move:
        return engine.parse_move(notation)

    def play(self, state: engine.State, move: Any, *, seat: int | None = None) -> PlayedMove:
        mover = seat if seat is not None else state.to_move
        assert mover is not None
        after = engine.apply_move(state, move)
        kind = "place" if isinstance(move, engine.Place) else format_move_kind(move)
        notation = engine.format_move(move)
        record = MoveRecord(
            seat=mover, kind=kind, notation=notation, public_notation=notation, score=0,
            public={"square": move.square if isinstance(move, engine.Place) else None},
            is_timeout=kind == "timeout",
        )
        return PlayedMove(after, self.summary(after), record)

    def resign(self, seat: int) -> engine.Move:
        return engine.Resign(seat)

    def timeout(self, seat: int) -> engine.Move:
        return engine.Timeout(seat)

    def computer_move(self, state: engine.State, level: str, rng: random.Random) -> engine.Move:
        return engine.legal_moves(state)[0]

    def preview(self, state: engine.State, seat: int, move: Any) -> Preview:
        engine.validate_move(state, move)
        return Preview(0)

    def position(self, state: engine.State, seat: int, *, over: bool) -> dict[str, Any]:
        return {
            "board": [state.board[row * 3: row * 3 + 3] for row in range(3)],
            "your_mark": engine.MARKS[seat],
        }

    def error_message(self, code: str, details: dict[str, Any]) -> str:
        return {"square_taken": "That square is taken.", "bad_square": "No such square.",
                "game_over": "The game is over."}.get(code, code)

    def computer_name(self, level: str) -> str:
        return "Computer (first free square)"

    def admin_position_html(self, game_state: dict[str, Any]) -> str:
        return format_html("<pre class='tictactoe'>{}</pre>", "\n".join(
            game_state["board"][row * 3: row * 3 + 3] for row in range(3)
        ))


def format_move_kind(move: engine.Move) -> str:
    return "resign" if isinstance(move, engine.Resign) else "timeout"

"""Tic-tac-toe's rules as a pure-Python engine (no Django): squares a1-c3 (column letter, row
number), seat 0 plays X and moves first, three in a row wins, a full board is a draw."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

SQUARES = tuple(f"{col}{row}" for row in "123" for col in "abc")
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)
MARKS = "XO"


class Termination(Enum):
    LINE = "line"
    FULL = "full"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"


class IllegalMoveError(ValueError):
    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


@dataclass(frozen=True)
class Place:
    square: str


@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class Timeout:
    seat: int


Move = Place | Resign | Timeout


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: int | None


@dataclass(frozen=True)
class State:
    board: str = "." * 9
    to_move: int | None = 0
    move_number: int = 0
    outcome: Outcome | None = None

    def to_dict(self) -> dict:
        result = None
        if self.outcome is not None:
            result = {"termination": self.outcome.termination.value,
                      "winner": self.outcome.winner}
        return {"board": self.board, "to_move": self.to_move,
                "move_number": self.move_number, "outcome": result}

    @classmethod
    def from_dict(cls, data: dict) -> State:
        outcome = data.get("outcome")
        return cls(
            board=data["board"], to_move=data["to_move"], move_number=data["move_number"],
            outcome=Outcome(Termination(outcome["termination"]), outcome["winner"])
            if outcome else None,
        )


def parse_move(text: str) -> Move:
    square = text.strip().lower()
    if square not in SQUARES:
        raise IllegalMoveError("bad_square", f"{text!r} is no square (a1 to c3).", square=text)
    return Place(square)


def format_move(move: Move) -> str:
    if isinstance(move, Place):
        return move.square
    return "resign" if isinstance(move, Resign) else "timeout"


def legal_moves(state: State) -> list[Place]:
    if state.outcome is not None:
        return []
    return [Place(sq) for i, sq in enumerate(SQUARES) if state.board[i] == "."]


def validate_move(state: State, move: Move) -> None:
    if state.outcome is not None:
        raise IllegalMoveError("game_over", "The game is over.")
    if isinstance(move, Place) and state.board[SQUARES.index(move.square)] != ".":
        raise IllegalMoveError("square_taken", f"{move.square} is taken.", square=move.square)


def apply_move(state: State, move: Move) -> State:
    validate_move(state, move)
    if isinstance(move, Resign | Timeout):
        reason = Termination.RESIGNATION if isinstance(move, Resign) else Termination.TIMEOUT
        outcome = Outcome(reason, 1 - move.seat)
        return replace(state, to_move=None, move_number=state.move_number + 1, outcome=outcome)
    assert state.to_move is not None
    index = SQUARES.index(move.square)
    board = state.board[:index] + MARKS[state.to_move] + state.board[index + 1:]
    outcome = None
    if any(board[a] == board[b] == board[c] != "." for a, b, c in LINES):
        outcome = Outcome(Termination.LINE, state.to_move)
    elif "." not in board:
        outcome = Outcome(Termination.FULL, None)
    return State(board, None if outcome else 1 - state.to_move, state.move_number + 1, outcome)

"""Errors raised by the Crazy10s engine.

Every refusal carries a stable machine-readable ``code`` (clients and translations key on it)
and a human ``message``; ``details`` holds structured context such as the offending line.
"""

from __future__ import annotations

from typing import Any

ERROR_CODES = frozenset(
    {
        "off_board",
        "occupied",
        "not_in_rack",
        "duplicate_square",
        "not_in_line",
        "gap",
        "isolated_tile",
        "not_connected",
        "first_move_centre",
        "first_move_too_short",
        "bad_sum",
        "wild_value_required",
        "bag_too_small",
        "game_over",
        "bad_notation",
        "too_many_tiles",
        "not_a_player",
    }
)


class IllegalMoveError(ValueError):
    """A move that the rules refuse. The game state is never changed by a refused move."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}

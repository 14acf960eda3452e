"""Errors raised by the Crazy Eights engine.

Every refusal carries a stable machine-readable ``code`` (clients and translations key on it),
an English ``message`` for logs and developers, and structured ``details``.
"""

from __future__ import annotations

from typing import Any

ERROR_CODES = frozenset(
    {
        "bad_notation",  # the text is not a move
        "match_over",  # the match has ended
        "not_your_turn",  # the seat asking is not the seat to act
        "not_a_player",  # a seat number outside the table
        "not_in_hand",  # a played card is not in the player's hand
        "duplicate_card",  # the same card twice in one play
        "does_not_match",  # the first card matches neither the suit nor the rank, and is no 8
        "penalty_pending",  # a draw-two penalty is pending: play a 2 or take it
        "no_penalty",  # take without a pending penalty
        "must_play",  # drawing while holding a playable card
        "drawn_card_first",  # after drawing, only the drawn card (first) may be played
        "draw_limit",  # three draws were taken this turn
        "stock_empty",  # nothing left to draw, the stock cannot be rebuilt
        "cannot_pass",  # passing before drawing, or with an unplayable drawn card and draws left
        "mixed_ranks",  # several cards of different ranks
        "several_not_allowed",  # several cards while the house rule is off
        "suit_required",  # an 8 played last without naming a suit
        "suit_not_allowed",  # a suit named when the last card is not an 8
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


class InvalidOptionsError(ValueError):
    """Match options that cannot be played; ``field`` names the offending option."""

    code = "invalid_options"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.details = {"field": field}

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}

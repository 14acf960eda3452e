"""Domain errors of the games service (rendered by config.exceptions as the error envelope)."""

from typing import Any

from config.errors import ApiError


def not_a_player() -> ApiError:
    return ApiError("not_a_player", "You are not a player of this game.", status=403)


def game_not_found() -> ApiError:
    return ApiError("not_found", "No such game.", status=404)


def not_your_turn(message: str = "It is not your turn.") -> ApiError:
    return ApiError("not_your_turn", message, status=409)


def stale_move_number(current: int) -> ApiError:
    return ApiError(
        "stale_move_number",
        f"The game has moved on: {current} moves have been played. Reload and try again.",
        status=409,
        details={"move_number": current},
    )


def game_over() -> ApiError:
    return ApiError("game_over", "The game is over.", status=409)


def idempotency_key_reused() -> ApiError:
    return ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used for another game.",
        status=409,
    )


def invalid(message: str, **details: Any) -> ApiError:
    return ApiError("invalid", message, status=400, details=details)


def illegal_move(exc: Any) -> ApiError:
    """An engine ``IllegalMoveError`` as a 400 carrying the engine's code and details."""
    return ApiError(exc.code, exc.message, status=400, details=dict(exc.details))

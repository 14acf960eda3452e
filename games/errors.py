"""Domain errors of the games service (rendered by config.exceptions as the error envelope).

Messages are translated into the active language (the player's); codes never change.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import ApiError
from games.kinds.base import GameKind


def not_a_player() -> ApiError:
    return ApiError("not_a_player", _("You are not a player of this game."), status=403)


def game_not_found() -> ApiError:
    return ApiError("not_found", _("No such game."), status=404)


def not_your_turn(message: str | None = None) -> ApiError:
    return ApiError("not_your_turn", message or _("It is not your turn."), status=409)


def stale_move_number(current: int) -> ApiError:
    message = ngettext(
        "The game has moved on: %(count)s move has been played. Reload and try again.",
        "The game has moved on: %(count)s moves have been played. Reload and try again.",
        current,
    ) % {"count": current}
    return ApiError("stale_move_number", message, status=409, details={"move_number": current})


def game_over() -> ApiError:
    return ApiError("game_over", _("The game is over."), status=409)


def game_started() -> ApiError:
    return ApiError(
        "game_started",
        _("The game has started: it cannot be cancelled, only resigned."),
        status=409,
    )


def game_not_started() -> ApiError:
    return ApiError(
        "game_not_started",
        _("The game has not started: nobody has joined it yet."),
        status=409,
    )


def idempotency_key_reused() -> ApiError:
    return ApiError(
        "idempotency_key_reused",
        _("This Idempotency-Key was already used for another game."),
        status=409,
    )


def idempotency_key_in_use() -> ApiError:
    return ApiError(
        "idempotency_key_in_use",
        _("A request with this Idempotency-Key is still in progress. Try again in a moment."),
        status=409,
        details={"retry_after": 1},
    )


def idempotency_key_mismatch() -> ApiError:
    return ApiError(
        "idempotency_key_mismatch",
        _("This Idempotency-Key was already used for a different request."),
        status=422,
    )


def unknown_player(name: str) -> ApiError:
    message = _("There is no player named '%(name)s'.") % {"name": name}
    return ApiError("unknown_player", message, details={"username": ["unknown player"]})


def cannot_play_yourself() -> ApiError:
    return ApiError(
        "cannot_play_yourself",
        _("You cannot play against yourself."),
        details={"username": ["yourself"]},
    )


def player_unavailable() -> ApiError:
    # Said the same way whatever the reason: it must not tell a blocked player they are.
    return ApiError(
        "player_unavailable",
        _("This player is not available for a game with you."),
        status=403,
        details={"username": ["unavailable"]},
    )


def no_hints() -> ApiError:
    return ApiError("no_hints", _("This game offers no hints."), status=400)


def no_preview() -> ApiError:
    return ApiError("no_preview", _("This game offers no preview of a move."))


def no_analysis() -> ApiError:
    return ApiError("no_analysis", _("This game offers no move analysis."), status=400)


def game_not_over() -> ApiError:
    return ApiError(
        "game_not_over",
        _("The analysis is available once the game is over."),
        status=409,
    )


def invalid(message: str, **details: Any) -> ApiError:
    return ApiError("invalid", message, status=400, details=details)


def illegal_move(kind: GameKind, exc: Any) -> ApiError:
    """An engine refusal as a 400 carrying the engine's code and details, with a message in
    the player's language that the game kind makes from the code and details."""
    details = dict(exc.details)
    return ApiError(exc.code, kind.error_message(exc.code, details), status=400, details=details)


def illegal_move_dict(kind: GameKind, exc: Any) -> dict[str, Any]:
    """The same refusal as the ``error`` object of a preview answer."""
    return {"code": exc.code, "message": kind.error_message(exc.code, dict(exc.details)),
            "details": dict(exc.details)}

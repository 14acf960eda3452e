"""Every write to a game: lock the row, check the move number, call the engine, save, and
schedule side effects (``games.effects``, the computer's turn) with ``transaction.on_commit``.

All functions are keyword-only; they raise ``config.errors.ApiError`` for refusals and leave the
database unchanged when they do (the transaction rolls back).

Modules by concern: ``creation`` (new games, random pairing), ``moves`` (a player's move,
preview, presence), ``endings`` (resign, cancel, moderation's abort and award), ``computer``
(the moves the server plays: computer turns and timeouts), ``analysis`` (the best move of each
move, "% of best", filled in by a worker); ``_common`` holds what they share. Private
helpers live in their module: patch them there (e.g. ``games.services.creation._new_seed``).
"""

from games.services.analysis import analyse_moves, request_analysis, sweep_analysis
from games.services.computer import play_ai_turn, play_timeout
from games.services.creation import (
    create_game,
    create_game_request,
    create_seated_game,
)
from games.services.endings import (
    abort_game,
    award_game,
    cancel,
    copy_missing_end_times,
    resign,
)
from games.services.idempotency import Receipt, purge_idempotency_records
from games.services.moves import (
    SEEN_RESOLUTION,
    MoveReceipt,
    come_back,
    leave_seat,
    note_seen,
    preview_move,
    submit_move,
)

__all__ = [
    "SEEN_RESOLUTION",
    "MoveReceipt",
    "abort_game",
    "analyse_moves",
    "award_game",
    "Receipt",
    "cancel",
    "come_back",
    "copy_missing_end_times",
    "create_game",
    "create_seated_game",
    "create_game_request",
    "leave_seat",
    "note_seen",
    "play_ai_turn",
    "play_timeout",
    "preview_move",
    "purge_idempotency_records",
    "request_analysis",
    "resign",
    "submit_move",
    "sweep_analysis",
]

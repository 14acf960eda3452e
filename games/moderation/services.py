"""Moderation writes. Each one: lock the row, change it, record a ``ModerationAction``, and leave
side effects (``games.effects``, queued computer turns) to ``transaction.on_commit``.

Keyword-only functions called by the admin; they raise ``config.errors.ApiError`` for refusals
(game over, not the computer's turn) and then change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import Device
from config.errors import ApiError
from games import dispatch, errors
from games import services as game_services
from games.models import Game, Seat
from games.moderation.models import ModerationAction

if TYPE_CHECKING:
    from accounts.models import User

Action = ModerationAction.Action


def _lock_game(game_id: int) -> Game:
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise errors.game_not_found()
    return game


def _record(
    *,
    moderator: User,
    action: str,
    game: Game | None = None,
    target_user: User | None = None,
    reason: str = "",
    details: dict[str, Any] | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=moderator,
        action=action,
        game=game,
        target_user=target_user,
        reason=reason,
        details=details or {},
    )


def abort_game(*, moderator: User, game_id: int, reason: str = "") -> ModerationAction:
    """End the game with no winner. ``game_finished`` is sent on commit by the games service."""
    with transaction.atomic():
        game = _lock_game(game_id)
        before = {"status": game.status, "move_number": game.move_number}
        game_services.abort_game(game_id=game.pk)
        return _record(
            moderator=moderator, action=Action.ABORT_GAME, game=game, reason=reason,
            details=before,
        )


def award_game(
    *, moderator: User, game_id: int, seat_index: int, reason: str = ""
) -> ModerationAction:
    """End the game as a win for ``seat_index`` (any seat the game has; Crazy Eights has up
    to four); ``game_finished`` is sent on commit."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = Seat.objects.filter(game=game, index=seat_index).select_related("user").first()
        if seat is None:
            raise errors.invalid(f"Game {game.pk} has no seat {seat_index}.")
        before = {"status": game.status, "move_number": game.move_number}
        game_services.award_game(game_id=game.pk, seat_index=seat_index)
        return _record(
            moderator=moderator,
            action=Action.AWARD_GAME,
            game=game,
            target_user=seat.user,
            reason=reason,
            details={**before, "seat_index": seat_index, "ai_level": seat.ai_level},
        )


def requeue_ai_turn(*, moderator: User, game_id: int, reason: str = "") -> ModerationAction:
    """Queue the pending turn of a seat the server plays — a computer, or a person away from
    a table — again (e.g. after a lost message), after commit.

    Safe to repeat: the task does nothing once the move number has moved on.
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.current_seat is None:
            raise ApiError("not_active", "The game is not active.", status=409)
        seat = Seat.objects.filter(game=game, index=game.current_seat).first()
        if seat is None or not seat.plays_itself:
            raise errors.not_your_turn("It is not a turn the server plays.")
        game_id, move_number = game.pk, game.move_number

        dispatch.enqueue_ai_turn_on_commit(game_id, move_number)
        return _record(
            moderator=moderator,
            action=Action.REQUEUE_AI_TURN,
            game=game,
            reason=reason,
            details={
                "move_number": move_number, "seat_index": seat.index, "level": seat.ai_level,
                "away": seat.away,
            },
        )


def suspend_user(*, moderator: User, user_id: int, reason: str = "") -> ModerationAction:
    """Deactivate the account and delete its tokens, so its API tokens stop working at once.

    Its games end, so no opponent waits for a player who cannot move any more: a game with
    moves played is won by the opponent (as if the suspended player had resigned), one where no
    move was made is aborted; a random-opponent request is withdrawn. The opponents get the
    usual game-finished notification (sent on commit by the games service).
    """
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise ApiError("not_found", "No such user.", status=404)
        was_active = user.is_active
        user.is_active = False
        user.save(update_fields=["is_active"])
        tokens, _ = Device.objects.filter(user=user).delete()
        aborted = _abort_waiting_games(user)
        ended = _end_active_games(user)
        return _record(
            moderator=moderator,
            action=Action.SUSPEND_USER,
            target_user=user,
            reason=reason,
            details={
                "was_active": was_active,
                "tokens_deleted": tokens,
                "waiting_games_aborted": aborted,
                "active_games_awarded": ended["awarded"],
                "active_games_aborted": ended["aborted"],
            },
        )


def _abort_waiting_games(user) -> list[int]:
    """Withdraw the user's random-opponent requests: nobody should be paired with them."""
    aborted: list[int] = []
    waiting = Game.objects.filter(status=Game.Status.WAITING, seats__user=user)
    for game_id in waiting.order_by("pk").values_list("pk", flat=True):
        # Re-check under the row lock: a partner may have joined since the query.
        if _lock_game(game_id).status == Game.Status.WAITING:
            game_services.abort_game(game_id=game_id)
            aborted.append(game_id)
    return aborted


def _end_active_games(user) -> dict[str, list[int]]:
    """End the user's active games: won by the opponent once a move was made, else aborted."""
    ended: dict[str, list[int]] = {"awarded": [], "aborted": []}
    active = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user)
    for game_id in active.order_by("pk").values_list("pk", flat=True):
        game = _lock_game(game_id)  # re-check under the lock: it may have ended meanwhile
        if game.status != Game.Status.ACTIVE:
            continue
        if game.move_number == 0:
            game_services.abort_game(game_id=game_id)
            ended["aborted"].append(game_id)
            continue
        opponent = Seat.objects.filter(game=game).exclude(user=user).values_list("index", flat=True)
        game_services.award_game(game_id=game_id, seat_index=opponent.get())
        ended["awarded"].append(game_id)
    return ended

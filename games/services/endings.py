"""Games that end other than by play: a player resigns, moderation aborts or awards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games import errors, registry, signals
from games.models import Game
from games.services._common import _lock_game, _record_move, _seat_of, _seats, _send_on_commit

if TYPE_CHECKING:
    from accounts.models import User


def resign(*, game_id: int, user: User) -> Game:
    """The user gives up (at any time, on either player's turn); the opponent wins."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if game.is_over:
            raise errors.game_over()
        adapter = registry.get(game.kind)
        if game.status == Game.Status.WAITING:
            # Nobody to lose against: withdrawing a random-opponent request aborts it.
            _end_without_moves(game, termination="aborted", winner=None)
            return game
        result = adapter.apply(adapter.load(game.state), adapter.resign(seat.index))
        _record_move(game, seats, result)
        return game


def _end_without_moves(game: Game, *, termination: str, winner: int | None) -> None:
    seats = _seats(game)
    scores = [0, 0]
    for seat in seats:
        scores[seat.index] = seat.score
    game.status = Game.Status.ABORTED if termination == "aborted" else Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.current_seat = None
    game.turn_started_at = None
    game.turn_deadline = None
    game.result = {
        "termination": termination,
        "winner": winner,
        "scores": scores,
        "adjustments": [0, 0],
    }
    game.save()
    _send_on_commit(signals.game_finished, game_id=game.pk)


def abort_game(*, game_id: int) -> Game:
    """Moderation: end the game with no winner (the admin records who did it)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination="aborted", winner=None)
        return game


def award_game(*, game_id: int, seat_index: int) -> Game:
    """Moderation: end the game as a win for ``seat_index``."""
    if seat_index not in (0, 1):
        raise errors.invalid("seat_index is 0 or 1.")
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination="awarded", winner=seat_index)
        return game

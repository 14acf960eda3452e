"""Games that end other than by play: a player resigns, moderation aborts or awards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games import errors, kinds
from games.kinds.base import LOSS, NONE, WIN, GameOutcome
from games.models import Game, Seat
from games.services._common import (
    _finish,
    _lock_game,
    _record_move,
    _seat_of,
    _seats,
    _set_results,
)

if TYPE_CHECKING:
    from accounts.models import User


def resign(*, game_id: int, user: User) -> Game:
    """The user gives up (at any time, on anyone's turn); the kind decides who wins."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if game.is_over:
            raise errors.game_over()
        kind = kinds.get(game.kind)
        if game.status == Game.Status.WAITING:
            # Nobody to lose against: withdrawing a random-opponent request aborts it.
            _end_without_moves(game, termination="aborted", winner=None)
            return game
        played = kind.play(kind.load(game.state), kind.resign(seat.index), seat=seat.index)
        _record_move(game, seats, played)
        return game


def _end_without_moves(game: Game, *, termination: str, winner: int | None) -> None:
    seats = _seats(game)
    scores = tuple(seat.score for seat in seats)
    winners = () if winner is None else (winner,)
    if termination == "aborted":
        results = tuple(NONE for _ in seats)
    else:
        results = tuple(WIN if s.index in winners else LOSS for s in seats)
    outcome = GameOutcome(termination, winners, scores, tuple(0 for _ in seats), results)
    _set_results(seats, outcome)
    Seat.objects.bulk_update(seats, ["result"])
    _finish(game, outcome, timezone.now(), aborted=termination == "aborted")
    game.save()


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
    with transaction.atomic():
        game = _lock_game(game_id)
        if seat_index not in range(game.seat_count):
            raise errors.invalid(f"seat_index is a seat of the game (0 to {game.seat_count - 1}).")
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination="awarded", winner=seat_index)
        return game

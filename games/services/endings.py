"""Games that end other than by play: a player resigns or cancels, moderation aborts or awards.

A game that has not started (``waiting``: a random-opponent request nobody answered yet) has no
one to lose against: leaving it is a cancel, whichever way it is asked for (``cancel``, or
``resign`` from an older client or an account deletion). Its result, like every result, has
one score and one adjustment per seat of the game, filled or not (``games.results``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import errors, kinds
from games.kinds.base import LOSS, NONE, WIN, GameOutcome
from games.models import Game, Seat
from games.results import ABORTED, AWARDED, CANCELLED, NOT_PLAYED
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
    """The user gives up (at any time, on anyone's turn); the kind decides who wins. A game
    that has not started is cancelled instead (``cancel``): nobody is there to win it."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if game.is_over:
            raise errors.game_over()
        if game.status == Game.Status.WAITING:
            _end_without_moves(game, termination=CANCELLED, winner=None)
            return game
        kind = kinds.get(game.kind)
        played = kind.play(kind.load(game.state), kind.resign(seat.index), seat=seat.index)
        _record_move(game, seats, played)
        return game


def cancel(*, game_id: int, user: User) -> Game:
    """Withdraw a game that has not started (every seat not filled yet): it ends ``aborted``
    with the termination ``cancelled``, nobody wins or loses, and it leaves the player's lists.
    Cancelling it again answers the same game; a game that started is resigned, not cancelled
    (``game_started``), and one that is over stays as it ended (``game_over``)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        _seat_of(_seats(game), user)
        if (game.result or {}).get("termination") == CANCELLED:
            return game
        if game.is_over:
            raise errors.game_over()
        if game.status != Game.Status.WAITING:
            raise errors.game_started()
        _end_without_moves(game, termination=CANCELLED, winner=None)
        return game


def _end_without_moves(game: Game, *, termination: str, winner: int | None) -> None:
    """End ``game`` now, without a move: a result with an entry for every seat of the game
    (an empty seat of a game that never started scores 0)."""
    seats = _seats(game)
    by_index = {seat.index: seat for seat in seats}
    every_seat = range(game.seat_count)
    scores = tuple(by_index[i].score if i in by_index else 0 for i in every_seat)
    winners = () if winner is None else (winner,)
    if termination in NOT_PLAYED:
        results = tuple(NONE for _ in every_seat)
    else:
        results = tuple(WIN if i in winners else LOSS for i in every_seat)
    outcome = GameOutcome(termination, winners, scores, tuple(0 for _ in every_seat), results)
    now = timezone.now()
    _set_results(seats, outcome, now)
    Seat.objects.bulk_update(seats, ["result", "finished_at"])
    _finish(game, seats, outcome, now, aborted=termination in NOT_PLAYED)
    game.save()


def abort_game(*, game_id: int) -> Game:
    """Moderation: end the game with no winner (the admin records who did it)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination=ABORTED, winner=None)
        return game


def award_game(*, game_id: int, seat_index: int) -> Game:
    """Moderation: end the game as a win for ``seat_index``. A game that has not started has
    nobody to award it to (``game_not_started``): abort it instead."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if seat_index not in range(game.seat_count):
            raise errors.invalid(f"seat_index is a seat of the game (0 to {game.seat_count - 1}).")
        if game.is_over:
            raise errors.game_over()
        if game.status == Game.Status.WAITING:
            raise errors.game_not_started()
        _end_without_moves(game, termination=AWARDED, winner=seat_index)
        return game


def copy_missing_end_times() -> int:
    """Seats of ended games without their game's end time get it (the beat runs this hourly):
    a game ended by code older than ``Seat.finished_at`` (a web process still running the
    previous release while the migration ran) would otherwise keep out of its place in the
    finished lists. Returns how many seats it mended (0 when all is well)."""
    ended = Game.objects.filter(pk=OuterRef("game_id")).values("finished_at")[:1]
    return Seat.objects.filter(finished_at=None, game__finished_at__isnull=False).update(
        finished_at=Subquery(ended)
    )

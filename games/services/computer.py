"""Moves the server plays itself: the computer's turn, and the pass when a turn times out.

Both run from tasks that may be retried: they do nothing if the game moved on meanwhile.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import kinds
from games.models import Game, Move, Seat
from games.services._common import _record_move, _seats


def play_ai_turn(*, game_id: int, expected_move_number: int) -> Move | None:
    """The computer plays its turn; does nothing if the game moved on or it is not its turn.

    The search runs on a snapshot read WITHOUT the row lock (it may take a while, and a
    player's move or resignation must not wait for it); the move is then saved under the lock
    only if the move number is still the one searched on, else it is discarded. The move is
    drawn from ``Random(f"{seed}:ai:{move_number}")``, so a retried task plays exactly the
    same move.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _computer_to_move(game, expected_move_number):
        return None
    seat = Seat.objects.get(game=game, index=game.current_seat)
    kind = kinds.get(game.kind)
    state = kind.load(game.state)
    rng = random.Random(f"{game.seed}:ai:{game.move_number}")
    choice = kind.computer_move(state, seat.ai_level, rng)
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if locked is None or not _computer_to_move(locked, expected_move_number):
            return None  # a resignation, an abort or a timeout came first: discard the search
        seats = _seats(locked)
        if not seats[locked.current_seat].is_computer:
            return None
        # The move number is unchanged, so the state under the lock is the one searched on.
        played = kind.play(kind.load(locked.state), choice)
        _record_move(locked, seats, played)
        return Move.objects.get(game=locked, number=locked.move_number)


def _computer_to_move(game: Game, expected_move_number: int) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.move_number == expected_move_number
        and game.current_seat is not None
        and Seat.objects.filter(game=game, index=game.current_seat, ai_level__isnull=False)
        .exists()
    )


def play_timeout(
    *, game_id: int, expected_move_number: int, now: datetime | None = None
) -> Move | None:
    """The turn's deadline passed: play a timeout pass, unless the game moved on meanwhile."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        if game.move_number != expected_move_number:
            return None
        if game.turn_deadline is None or game.turn_deadline > now:
            return None
        seats = _seats(game)
        kind = kinds.get(game.kind)
        seat = game.current_seat
        played = kind.play(kind.load(game.state), kind.timeout(seat), seat=seat)
        _record_move(game, seats, played, now=now)
        return Move.objects.get(game=game, number=game.move_number)

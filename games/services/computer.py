"""Moves the server plays itself: the computer's turn, and the pass when a turn times out.

Both run from tasks that may be retried: they do nothing if the game moved on meanwhile.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Game, Move
from games.services._common import _record_move, _seats


def play_ai_turn(*, game_id: int, expected_move_number: int) -> Move | None:
    """The computer plays its turn; does nothing if the game moved on or it is not its turn.

    The move is drawn from ``Random(f"{seed}:ai:{move_number}")``, so a retried task plays
    exactly the same move.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        if game.move_number != expected_move_number:
            return None
        seats = _seats(game)
        seat = seats[game.current_seat]
        if not seat.is_computer:
            return None
        adapter = registry.get(game.kind)
        state = adapter.load(game.state)
        rng = random.Random(f"{game.seed}:ai:{game.move_number}")
        choice = adapter.computer_move(state, seat.ai_level, rng)
        _record_move(game, seats, adapter.apply(state, choice))
        return Move.objects.get(game=game, number=game.move_number)


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
        adapter = registry.get(game.kind)
        state = adapter.load(game.state)
        _record_move(game, seats, adapter.apply(state, adapter.timeout()), now=now)
        return Move.objects.get(game=game, number=game.move_number)

"""Moves the server plays itself: the computer's turn, and the pass when a turn times out.

Both run from tasks that may be retried: they do nothing if the game moved on meanwhile.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import effects, kinds
from games.models import Game, Move, Seat
from games.services._common import _record_move, _seats

log = logging.getLogger(__name__)


def play_ai_turn(*, game_id: int, expected_move_number: int) -> Move | None:
    """The server plays its turn — a computer's, or an away person's (the kind's timeout
    stand-in plays it); does nothing if the game moved on or nobody the server plays is to
    move.

    The search runs on a snapshot read WITHOUT the row lock (it may take a while, and a
    player's move or resignation must not wait for it); the move is then saved under the lock
    only if the move number is still the one searched on, else it is discarded. The move is
    drawn from ``Random(f"{seed}:ai:{move_number}")``, so a retried task plays exactly the
    same move.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _computer_to_move(game, expected_move_number):
        return None
    assert game.current_seat is not None  # checked by _computer_to_move
    seat = Seat.objects.get(game=game, index=game.current_seat)
    kind = kinds.get(game.kind)
    state = kind.load(game.state)
    if seat.ai_level is not None:  # a computer's seat (``is_computer``)
        rng = random.Random(f"{game.seed}:ai:{game.move_number}")
        try:
            choice = kind.computer_move(state, seat.ai_level, rng)
        except Exception:
            # A failing search must not stall the game: a retry would fail the same way (the
            # move is seeded from the game), so the kind's simplest legal move is played.
            choice = kind.computer_fallback(state)
            if choice is None:
                raise
            log.exception(
                "computer move failed, its simplest legal move played instead: game %s, "
                "move %s, level %s", game.pk, game.move_number, seat.ai_level,
            )
        ahead = None
    else:  # an away person: the stand-in decides inside ``play``, on this snapshot
        choice = None
        ahead = kind.play(state, kind.timeout(seat.index), seat=seat.index)
    with effects.one_publication(), transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if locked is None or not _computer_to_move(locked, expected_move_number):
            return None  # a resignation, an abort or a timeout came first: discard the search
        seats = _seats(locked)
        assert locked.current_seat is not None  # checked by _computer_to_move
        now_playing = seats[locked.current_seat]
        if now_playing.is_computer != seat.is_computer or not now_playing.plays_itself:
            return None  # the away person came back meanwhile
        # The move number is unchanged, so the state under the lock is the one searched on.
        played = ahead or kind.play(kind.load(locked.state), choice)
        _record_move(locked, seats, played)
        return Move.objects.get(game=locked, number=locked.move_number)


def _computer_to_move(game: Game, expected_move_number: int) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.move_number == expected_move_number
        and game.current_seat is not None
        and Seat.objects.filter(game=game, index=game.current_seat)
        .filter(Q(ai_level__isnull=False) | Q(away=True))
        .exists()
    )


def play_timeout(
    *, game_id: int, expected_move_number: int, now: datetime | None = None
) -> Move | None:
    """The turn's deadline passed: play a timeout pass, unless the game moved on meanwhile.

    With a short turn clock (a table) it is a takeover: the seat turns ``away`` and the kind's
    timeout stand-in plays this move and, through ``play_ai_turn``, the seat's next ones until
    the person acts again. The row lock and the move number make a move arriving at the
    deadline and the takeover exclusive: whoever locks first plays, the other finds the move
    number changed."""
    now = now or timezone.now()
    with effects.one_publication(), transaction.atomic():
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
        assert seat is not None  # an active game has a seat to move
        if game.turn_seconds and seats[seat].user_id is not None and not seats[seat].away:
            seats[seat].away = True
            Seat.objects.filter(pk=seats[seat].pk).update(away=True)
            effects.seat_taken_over(game, seats, seat)
        played = kind.play(kind.load(game.state), kind.timeout(seat), seat=seat)
        _record_move(game, seats, played, now=now)
        return Move.objects.get(game=game, number=game.move_number)

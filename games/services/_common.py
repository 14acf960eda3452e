"""What every write to a game shares: the row lock, the seats, the turn clock, side effects
scheduled with ``transaction.on_commit``, and ``_record_move``, which persists an engine result.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from games import errors, registry, signals
from games.models import Game, Move, Seat

if TYPE_CHECKING:
    from accounts.models import User


def _lock_game(game_id: int) -> Game:
    # FOR NO KEY UPDATE: writers of one game still queue behind each other, but rows that merely
    # reference the game (notifications, moves of other transactions) don't block or get skipped.
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise errors.game_not_found()
    return game


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("index"))


def _seat_of(seats: list[Seat], user: User) -> Seat:
    for seat in seats:
        if seat.user_id is not None and seat.user_id == user.pk:
            return seat
    raise errors.not_a_player()


def _send_on_commit(signal, **kwargs: Any) -> None:
    signals.recording.send(sender=Game, event=signal, **kwargs)  # the outbox, same transaction
    transaction.on_commit(lambda: signal.send(sender=Game, **kwargs))


def _queue_ai_turn_on_commit(game_id: int, move_number: int) -> None:
    def enqueue() -> None:
        from games.tasks import enqueue_ai_turn  # tasks import services: import late

        enqueue_ai_turn(game_id, move_number)

    transaction.on_commit(enqueue)


def _begin_turn(game: Game, seats: list[Seat], now: datetime) -> None:
    """Start the turn of ``game.current_seat``: clock, signal, and the computer if it moves."""
    game.turn_started_at = now
    game.turn_deadline = now + timedelta(hours=game.turn_hours)
    _send_on_commit(
        signals.turn_started,
        game_id=game.pk,
        seat_index=game.current_seat,
        move_number=game.move_number,
    )
    if seats[game.current_seat].is_computer:
        _queue_ai_turn_on_commit(game.pk, game.move_number)


def _start(game: Game, seats: list[Seat], now: datetime) -> None:
    """Both seats are filled: the game becomes active and the first turn begins."""
    adapter = registry.get(game.kind)
    state = adapter.load(game.state)
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.current_seat = state.current_player
    _begin_turn(game, seats, now)
    game.save()
    _send_on_commit(signals.game_started, game_id=game.pk)


def _record_move(
    game: Game, seats: list[Seat], result: Any, *, now: datetime | None = None
) -> dict[str, Any]:
    """Persist an engine ``MoveResult``: state, seats, the Move row, clock, end of game."""
    adapter = registry.get(game.kind)
    now = now or timezone.now()
    state = result.state
    facts = adapter.describe(result)
    game.state = adapter.dump(state)
    game.move_number = state.move_number
    Move.objects.create(
        game=game,
        number=state.move_number,
        seat=result.player,
        kind=facts["kind"],
        notation=facts["notation"],
        public_notation=facts["public_notation"],
        score=facts["score"],
        lines=facts["lines"],
        drawn=len(facts["drawn"]),
        is_timeout=facts["kind"] == Move.Kind.TIMEOUT,
    )
    racks = adapter.racks(state)
    for seat in seats:
        seat.score = state.scores[seat.index]
        seat.rack = racks[seat.index]
    Seat.objects.bulk_update(seats, ["score", "rack"])
    if state.result is not None:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.current_seat = None
        game.turn_started_at = None
        game.turn_deadline = None
        game.result = {
            "termination": state.result.termination.value,
            "winner": state.result.winner,
            "scores": list(state.result.scores),
            "adjustments": list(state.result.adjustments),
        }
        _send_on_commit(signals.game_finished, game_id=game.pk)
    else:
        game.current_seat = state.current_player
        _begin_turn(game, seats, now)
    game.save()
    return facts

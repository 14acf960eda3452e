"""What a write to a game sets off, called from the services (never through signals), so the
path of a move reads from the code:

- inside the write's transaction: the notification outbox's entry (``notifications``), which
  commits or rolls back with the write;
- after the commit (``transaction.on_commit``): the players' live events (``live``), the
  rating of a finished game and the nudges to the workers (``dispatch``).

Every function here is called with the write's transaction open. The after-commit work reads
the game and seats the write had in hand (as they are when the transaction commits), not the
database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import transaction

from games import dispatch
from games.models import Game, Move, Seat
from games.notifications.services import recording
from live import game_events, publisher
from live.backends import get_backend
from live.backends.redis import RedisBackend
from live.game_events import MoveFacts, Snapshot


@contextmanager
def one_publication() -> Iterator[None]:
    """Around a write's ``transaction.atomic()``: the live events its commit publishes are
    stored in one write (``live.publisher.batched``), not one per event and player, and the
    Celery messages its commit sends go to the broker together (``dispatch.batched``). When
    both go to the same Redis (the live events' backend is Redis and the broker its
    database), they share one pipeline: a move costs one Redis round trip after its commit."""
    with publisher.batched(flush=False) as events, dispatch.batched(flush=False) as messages:
        try:
            yield
        finally:
            _send_together(events, messages)


def _send_together(events: list | None, messages: dispatch.MessageBatch | None) -> None:
    """Inside another ``one_publication`` both are None: the outer one sends ours too."""
    if events is None:
        if messages is not None:
            messages.flush()
        return
    backend = get_backend()
    if (
        not events
        or messages is None
        or not messages.messages
        or not isinstance(backend, RedisBackend)
        or backend.url != settings.CELERY_BROKER_URL
        or publisher.skipped(f"{len(events)} events")
    ):
        publisher.store(events)
        if messages is not None:
            messages.flush()
        return
    try:
        pipe = backend.pipeline()
        backend.add_many(pipe, events)
        messages.push_into(pipe)
        pipe.execute()
    except Exception as exc:
        publisher.failed(f"{len(events)} events", exc)
        messages.refused(exc)


def _after_commit(publish, game: Game, seats: list[Seat], *args) -> None:
    transaction.on_commit(lambda: publish(Snapshot.of(game, seats), *args))


def game_started(game: Game, seats: list[Seat]) -> None:
    recording.game_started(game_id=game.pk)
    _after_commit(game_events.game_started, game, seats)


def move_played(game: Game, seats: list[Seat], move: Move) -> None:
    """A move was recorded (call this before its turn or the end of the game is scheduled:
    the move's event comes first)."""
    facts = MoveFacts(move.number, move.seat, move.kind, move.public_notation, move.score,
                      dict(move.public or {}))
    _after_commit(game_events.move_played, game, seats, facts)


def turn_started(game: Game, seats: list[Seat]) -> None:
    """``game.current_seat`` is to move: the turn email (a person's turn after the first
    move) and the deadline events."""
    seat = next(s for s in seats if s.index == game.current_seat)
    if seat.user_id is not None:
        recording.turn_started(game_id=game.pk, seat_index=seat.index,
                               move_number=game.move_number, user_id=seat.user_id)
    _after_commit(game_events.turn_started, game, seats)


def game_finished(game: Game, seats: list[Seat]) -> None:
    """The result emails, the players' events and the rating (a worker decides whether the
    game is rated)."""
    recording.game_finished(game_id=game.pk)
    game_id = game.pk
    _after_commit(game_events.game_finished, game, seats)
    transaction.on_commit(lambda: dispatch.enqueue_rating(game_id))


def seat_taken_over(game: Game, seats: list[Seat], seat_index: int) -> None:
    """A person missed a short clock's deadline: the computer plays their seat meanwhile."""
    _after_commit(game_events.seat_taken_over, game, seats, seat_index)


def move_analysed(game_id: int, move_number: int) -> None:
    transaction.on_commit(
        lambda: game_events.move_analysed(game_id=game_id, move_number=move_number)
    )


def analysis_ready(game_id: int) -> None:
    transaction.on_commit(lambda: game_events.analysis_ready(game_id=game_id))


def table_changed(table_id: int, event: str, user_id: int) -> None:
    """joined, left, back or dealt: everyone at the table hears of it."""
    transaction.on_commit(
        lambda: game_events.table_changed(table_id=table_id, event=event, user_id=user_id)
    )


def table_invitation(table_id: int, code: str, kind: str, user_id: int, host_id: int) -> None:
    recording.table_invitation(
        table_id=table_id, code=code, kind=kind, user_id=user_id, host_id=host_id
    )



def table_dealt(table_id: int, code: str, game_id: int, host_id: int) -> None:
    """The host dealt: the seated people's pushes are claimed in the deal's transaction."""
    recording.table_dealt(table_id=table_id, code=code, game_id=game_id, host_id=host_id)

"""Celery tasks of the games app: they take ids and call a service.

``play_ai_turn`` is idempotent (the service checks the move number under the row lock), so it is
safe to acknowledge late, to retry, and to queue twice (the sweep may re-queue a turn whose
message is merely slow).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import cast

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.db.models import F, Q
from django.utils import timezone

from config import redis_health
from config.unavailable import UNAVAILABLE_ERRORS
from games import dispatch, services, turn_locks
from games.models import Game

log = logging.getLogger(__name__)

# Added to the broker's visibility timeout: a message taken by a worker that died comes back
# by itself after that timeout, so a turn is only considered lost once it has passed.
AI_TURN_STALE_MARGIN = timedelta(seconds=15)


def ai_turn_stale_after() -> timedelta:
    """How long a computer turn may stay pending before the sweep queues it again."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    return timedelta(seconds=options.get("visibility_timeout", 45)) + AI_TURN_STALE_MARGIN


@shared_task(
    name=dispatch.PLAY_AI_TURN,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_ai_turn(game_id: int, expected_move_number: int) -> int | None:
    """Play the computer's move; returns the new move number, or None if nothing was due.

    Under the game's turn lock (games/turn_locks.py), which tells the sweep that this turn is
    being played; a second message for the same turn finds it held and leaves the turn to the
    worker that holds it (the sweep queues it again if that worker dies)."""
    with turn_locks.playing(game_id) as mine:
        if not mine:
            log.info("the computer's turn of game %s is being played by another worker", game_id)
            return None
        _mark_started(game_id, expected_move_number)
        move = services.play_ai_turn(game_id=game_id, expected_move_number=expected_move_number)
    return move.number if move is not None else None


def _started_key(game_id: int, move_number: int) -> str:
    return f"games:ai-started:{game_id}:{move_number}"


def _mark_started(game_id: int, move_number: int) -> None:
    """Note that a worker took this turn (under its turn lock): if that lock is gone while the
    turn is still due, the worker died, and the sweep need not wait to tell a lost message from
    a slow one (``ai_turn_start_after``). Not without PostgreSQL (the sweep cannot tell a
    held lock there, so it never reads the mark), nor while Redis is known to fail (a hung
    cache would cost the turn a timeout)."""
    if not turn_locks.supported() or redis_health.failed_recently():
        return
    try:
        cache.set(_started_key(game_id, move_number), 1,
                  timeout=ai_turn_stale_after().total_seconds())
    except Exception as exc:  # only the recovery's speed depends on it
        if isinstance(exc, (*UNAVAILABLE_ERRORS, OSError)):
            redis_health.note_failure()
        log.warning("cache unavailable: the start of game %s's computer turn not noted", game_id)


def _started(turns: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Which of these turns a worker took (``_mark_started``): one cache round trip."""
    if not turns or redis_health.failed_recently():
        return set()
    keys = {_started_key(*turn): turn for turn in turns}
    try:
        found = cache.get_many(list(keys))
    except Exception:
        return set()
    return {keys[key] for key in found}


def _still_due(game_id: int, move_number: int) -> bool:
    """The turn was read before its lock was found free: a worker may have played it and let
    the lock go meanwhile (it commits first). Read again, so that a turn played just now is
    not queued once more (harmless, the task is idempotent, but a message each time)."""
    return Game.objects.filter(
        pk=game_id, move_number=move_number, status=Game.Status.ACTIVE).exists()


def _claim_requeue(game_id: int, move_number: int, interval: timedelta) -> bool:
    """True if this turn was not re-queued within ``interval`` (and remember that it is now).

    The time is compared here rather than left to the cache's expiry, so that it follows the
    same clock as ``turn_started_at``; the key outlives the interval only to be read.
    """
    key = f"games:ai-requeued:{game_id}:{move_number}"
    now = timezone.now().timestamp()
    try:
        last = cache.get(key)
        if last is not None and now - last < interval.total_seconds():
            return False
        cache.set(key, now, timeout=2 * interval.total_seconds())
    except Exception:
        # The cache only limits duplicates (the task is idempotent): without it, re-queue.
        log.warning("cache unavailable: re-queueing game %s without the limit", game_id)
    return True


def ai_turn_start_after() -> timedelta:
    """How long a computer turn may wait for its task to start before the sweep queues it
    again, when the database can tell whether a worker plays it (games/turn_locks.py): the
    pause between computer turns plus ``GAMES_AI_TURN_START_SECONDS``."""
    pause = float(getattr(settings, "GAMES_AI_PAUSE_SECONDS", 0))
    return timedelta(seconds=pause + settings.GAMES_AI_TURN_START_SECONDS)


@shared_task(name=dispatch.SWEEP_AI_TURNS)
def sweep_ai_turns() -> int:
    """Re-queue computer turns that nobody is playing: lost messages, and messages taken by a
    worker that died (a SIGKILL, a lost host).

    With PostgreSQL a turn pending for ``ai_turn_start_after()`` (a few seconds) is queued
    again unless a worker holds its turn lock, and at once if a worker took it and no longer
    holds the lock (it died mid-turn: SIGKILL, a lost host); without it (SQLite) only once it
    has been pending for ``ai_turn_stale_after()``, past the broker's visibility timeout, when
    a taken message would have come back by itself. Each turn is re-queued at most once per
    ``ai_turn_stale_after()`` (a cache key per game and move number), so a backlog of slow
    messages is not topped up with duplicates on every sweep; the task is idempotent anyway.
    One sweep at a time (its own advisory lock): a slow sweep and the next beat's never both
    re-queue.
    """
    with turn_locks.sweeping() as mine:
        if not mine:
            log.info("another computer-turn sweep is running: this one stands down")
            return 0
        return _sweep_ai_turns()


def _sweep_ai_turns() -> int:
    stale_after = ai_turn_stale_after()
    now = timezone.now()
    knows_running = turn_locks.supported()
    cutoff = now - (ai_turn_start_after() if knows_running else stale_after)
    rows = cast(list[tuple[int, int, datetime]], list(  # the filter excludes a null start
        Game.objects.filter(
            # One filter(): the same seat row must be the one to move and played by the
            # server (a computer, or an away person at a table).
            Q(seats__ai_level__isnull=False) | Q(seats__away=True),
            status=Game.Status.ACTIVE,
            turn_started_at__lte=now if knows_running else cutoff,
            seats__index=F("current_seat"),
        ).values_list("pk", "move_number", "turn_started_at")
    ))
    # Younger turns are due only if a worker took them and lost them (checked below).
    taken = _started([(game_id, move_number) for game_id, move_number, started_at in rows
                      if started_at > cutoff])
    candidates = [(game_id, move_number) for game_id, move_number, started_at in rows
                  if started_at <= cutoff or (game_id, move_number) in taken]
    pending = [
        (game_id, move_number)
        for game_id, move_number in candidates
        if not (knows_running and turn_locks.being_played(game_id))
        and ((game_id, move_number) not in taken or _still_due(game_id, move_number))
        and _claim_requeue(game_id, move_number, stale_after)
    ]
    for game_id, move_number in pending:
        log.info("re-queueing computer turn of game %s at move %s (no worker is playing it)",
                 game_id, move_number)
        dispatch.enqueue_ai_turn(game_id, move_number)
    return len(pending)


@shared_task(name=dispatch.PURGE_IDEMPOTENCY_RECORDS, soft_time_limit=30, time_limit=40)
def purge_idempotency_records() -> int:
    """Delete stored ``Idempotency-Key`` responses older than ``IDEMPOTENCY_RETENTION_DAYS``:
    a client retries within minutes, and the table would otherwise grow with every move."""
    return services.purge_idempotency_records()


@shared_task(name=dispatch.COPY_SEAT_END_TIMES, soft_time_limit=30, time_limit=40)
def copy_seat_end_times() -> int:
    """Mend seats of ended games that lack their game's end time (the finished lists are
    ordered by it): normally none; games ended by the previous release during a deploy."""
    return services.copy_missing_end_times()


# A timer that fires this early is rescheduled to the deadline rather than dropped (Celery's
# countdown follows the sender's clock, the deadline the database's).
EARLY_SLEEP_LIMIT = 2.0


@shared_task(
    name=dispatch.EXPIRE_TURN,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=10,
    max_retries=5,
)
def expire_turn(game_id: int, expected_move_number: int) -> int | None:
    """A short turn's deadline (a table's): the computer takes the seat over unless the move
    came first. Idempotent: the service checks the move number and the deadline under the
    game's row lock; a duplicate or late message plays nothing."""
    game = (
        Game.objects.filter(pk=game_id, move_number=expected_move_number)
        .values_list("turn_deadline", flat=True)
        .first()
    )
    if game is None:
        return None
    early = (game - timezone.now()).total_seconds()
    if early > EARLY_SLEEP_LIMIT:
        dispatch.send(dispatch.EXPIRE_TURN, game_id, expected_move_number, countdown=early)
        return None
    if early > 0:
        time.sleep(early)
    move = services.play_timeout(game_id=game_id, expected_move_number=expected_move_number)
    return move.number if move is not None else None


@shared_task(
    name=dispatch.ANALYSE_MOVES,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def analyse_moves(game_id: int, up_to: int | None = None) -> int:
    """Fill in the best move of the game's due moves up to ``up_to`` (None: all); returns how
    many this run wrote. Idempotent: a move already analysed is never searched again for
    writing, and never written twice."""
    return len(services.analyse_moves(game_id=game_id, up_to=up_to))


@shared_task(name=dispatch.SWEEP_ANALYSIS)
def sweep_analysis() -> int:
    """Queue the analysis of games whose move analysis message was lost (see the service)."""
    return len(services.sweep_analysis())

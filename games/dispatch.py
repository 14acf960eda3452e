"""Where side effects leave the service: every Celery task the games apps send, by name.

Services call the ``enqueue_*`` functions (from ``transaction.on_commit``, so a message never
announces a write that rolled back); the tasks modules import services, never the other way
round, and this module imports no tasks module: it sends by NAME. Messages are nudges: what
they announce is in the database, and a sweep finds it if a message is lost, so a broker
outage is logged and never fails the (committed) caller.

Queues: ``route_task`` is Celery's router (``CELERY_TASK_ROUTES``): computer turns go to
``GAMES_AI_QUEUE``, notification work to ``NOTIFY_QUEUE``, move analysis to
``GAMES_ANALYSIS_QUEUE`` (empty: Celery's default queue). Notification work and analysis carry
``BACKGROUND_PRIORITY``: on the same queue a worker takes a computer turn, a turn's deadline or
a sweep before them, so a player looking at "thinking..." never waits behind a backlog of
emails (a worker restarted after a crash finds the emails of every move made meanwhile).
"""

from __future__ import annotations

import contextvars
import functools
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from config import celery_wire, redis_health
from config.logs import current_request_id
from config.unavailable import UNAVAILABLE_ERRORS

log = logging.getLogger(__name__)

# Task names are part of the deployment (queued messages and the beat schedule carry them):
# never rename one without draining the queues.
PLAY_AI_TURN = "games.play_ai_turn"
EXPIRE_TURN = "games.expire_turn"
SWEEP_AI_TURNS = "games.sweep_ai_turns"
PURGE_IDEMPOTENCY_RECORDS = "games.purge_idempotency_records"
COPY_SEAT_END_TIMES = "games.copy_seat_end_times"
ANALYSE_MOVES = "games.analyse_moves"
SWEEP_ANALYSIS = "games.sweep_analysis"
SWEEP_EXPIRED_TURNS = "clocks.sweep_expired_turns"
ENSURE_DAILY_PUZZLES = "puzzles.ensure_daily_puzzles"
PROCESS_EVENT = "notifications.process_event"
NOTIFY_TURN = "notifications.notify_turn"
NOTIFY_STARTED = "notifications.notify_started"
NOTIFY_FINISHED = "notifications.notify_finished"
SEND_NOTIFICATION = "notifications.send"
SEND_PUSH = "notifications.send_push"
SWEEP_NOTIFICATIONS = "notifications.sweep"
SWEEP_OUTBOX = "notifications.sweep_outbox"
PURGE_NOTIFICATIONS = "notifications.purge_old"
RATE_GAME = "social.rate_game"
SWEEP_RATINGS = "social.sweep_ratings"
ACCOUNT_EMAIL = "accounts.send_email"
PASSWORD_RESET_EMAIL = "accounts.send_password_reset"
SWEEP_ACCOUNTS = "accounts.sweep"

# A turn's deadline timer goes with the computer's turns: it makes the computer play.
AI_TASKS = frozenset({PLAY_AI_TURN, EXPIRE_TURN})
NOTIFY_TASKS = frozenset({
    PROCESS_EVENT, NOTIFY_TURN, NOTIFY_STARTED, NOTIFY_FINISHED, SEND_NOTIFICATION, SEND_PUSH,
    ACCOUNT_EMAIL, PASSWORD_RESET_EMAIL,
})
# Move analysis is a search like the computer's, but nobody waits on it: its own queue keeps it
# from delaying computer turns when a deployment separates them.
ANALYSIS_TASKS = frozenset({ANALYSE_MOVES})
# Kombu's Redis transport keeps each priority step (0, 3, 6, 9) in a list of its own and a
# worker pops step 0 (every message sent without a priority) first: the game's emails and the
# analysis wait while computer turns, deadlines and sweeps are queued on the same queue. Account
# emails (a verification, a password reset: a person waits for them) keep step 0. The order is
# strict: a worker kept busy with computer turns all the time sends game emails only in their
# gaps, so such a deployment gives NOTIFY_QUEUE workers of its own (README "Scaling out").
BACKGROUND_PRIORITY = 6
BACKGROUND_TASKS = (NOTIFY_TASKS - {ACCOUNT_EMAIL, PASSWORD_RESET_EMAIL}) | ANALYSIS_TASKS


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any):
    """Celery router: the queue (and for background work the priority) of a task by name,
    read from the settings at send time."""
    if name in AI_TASKS:
        queue = getattr(settings, "GAMES_AI_QUEUE", None)
        return {"queue": queue} if queue else None
    if name in NOTIFY_TASKS:
        queue = getattr(settings, "NOTIFY_QUEUE", None)
    elif name in ANALYSIS_TASKS:
        queue = getattr(settings, "GAMES_ANALYSIS_QUEUE", None)
    else:
        return None
    if name not in BACKGROUND_TASKS:
        return {"queue": queue} if queue else None
    return {"queue": queue or celery_wire.default_queue(),
            "priority": BACKGROUND_PRIORITY}


# When this process last failed to queue a message (time.monotonic()); best-effort messages
# are not even tried for a while after it (``enqueue_analysis``).
_last_refusal = float("-inf")
# Seconds after a refused send during which best-effort messages are left to their sweep.
BEST_EFFORT_QUIET_SECONDS = 30.0


class MessageBatch:
    """The messages of one write (``batched``): rendered by ``config.celery_wire`` and pushed
    onto their queues in one Redis pipeline when the write's commit hooks have run."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, tuple[Any, ...], float]] = []

    def add(self, name: str, args: tuple[Any, ...], countdown: float) -> None:
        self.messages.append((name, args, countdown))

    def render(self) -> list[tuple[str, bytes]]:
        """(list, payload) of every message, for ``LPUSH list payload`` on the broker: the
        list of the message's queue and priority."""
        request_id = current_request_id()
        extra = {"request_id": request_id} if request_id else None
        default_queue = celery_wire.default_queue()
        rendered = []
        for name, args, countdown in self.messages:
            route = route_task(name, args, {}, {}) or {}
            queue = route.get("queue") or default_queue
            priority = route.get("priority", 0)
            rendered.append((celery_wire.queue_list(queue, priority), celery_wire.task_message(
                name, args, queue, countdown=countdown, priority=priority,
                extra_headers=extra)))
        return rendered

    def refused(self, exc: Exception) -> None:
        """The pipeline failed: logged once, as ``send`` logs a refusal; the sweeps send the
        messages' work later."""
        global _last_refusal
        _last_refusal = time.monotonic()
        if isinstance(exc, (*UNAVAILABLE_ERRORS, OSError)):
            redis_health.note_failure()
        log.warning("could not queue %s (%s: %s)", ", ".join(n for n, *_ in self.messages),
                    type(exc).__name__, exc)

    def flush(self) -> None:
        if not self.messages:
            return
        try:
            pipe = broker_redis().pipeline(transaction=False)
            for queue, payload in self.render():
                pipe.lpush(queue, payload)
            pipe.execute()
        except Exception as exc:
            self.refused(exc)


_batch: contextvars.ContextVar[MessageBatch | None] = contextvars.ContextVar(
    "dispatch_batch", default=None
)


@functools.cache
def _broker_client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(
        url,
        socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
        socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
    )


def broker_url() -> str:
    """The broker Celery itself uses (its ``CELERY_BROKER_URL`` environment variable, read
    first, or the setting), read once per process (``celery_wire.forget`` reads it again)."""
    return celery_wire.broker_url()


def broker_redis() -> Any:
    """A redis-py client of the broker (Redis only): one connection pool per process."""
    return _broker_client(broker_url())


@contextmanager
def batched(*, flush: bool = True) -> Iterator[MessageBatch | None]:
    """Messages sent inside (a move's commit hooks: the outbox nudge, the analysis) go to the
    broker together when it ends, in one Redis pipeline, written by ``config.celery_wire``
    instead of Celery's producer (issue 28: two ``apply_async`` cost a move ~2 ms of CPU).
    A broker that refuses them then is logged once, as ``send`` logs a refusal; their sweeps
    send them later. Only with Redis as the broker and tasks not run eagerly (tests):
    otherwise each is sent at once, and this yields None.

    ``flush=False``: the caller pushes the yielded batch's messages itself
    (``MessageBatch.render``, ``games.effects.one_publication``: the same pipeline as the live
    events). A task the wire cannot write as Celery would (``celery_wire.writable``) is sent by
    Celery at once instead."""
    if (
        _batch.get() is not None
        or not _broker_is_redis()
        or current_app.conf.task_always_eager
    ):
        yield None
        return
    batch = MessageBatch()
    token = _batch.set(batch)
    try:
        yield batch
    finally:
        _batch.reset(token)
        if flush:
            batch.flush()


def send(name: str, *args: Any, countdown: float = 0) -> bool:
    """Queue task ``name`` now; False (logged) if the broker refused.

    A signature rather than ``send_task``: when the task is registered in this process it is
    sent through the task itself, which keeps ``CELERY_TASK_ALWAYS_EAGER`` working.

    Not even tried for a few seconds after this process found Redis failing
    (config/redis_health.py), when the broker is Redis: with Redis hung each try costs the
    caller seconds, and every message has a sweep that finds its work in the database."""
    global _last_refusal
    broker_is_redis = _broker_is_redis()
    if broker_is_redis and redis_health.failed_recently():
        log.warning("not queued %s%r: Redis failed recently (its sweep sends it)", name, args)
        return False
    try:
        batch = _batch.get()
        if batch is not None and celery_wire.writable(name):  # sent when the batch ends
            batch.add(name, args, countdown)
            return True
        options: dict[str, Any] = {"countdown": countdown} if countdown > 0 else {}
        current_app.signature(name, args=args).apply_async(**options)
    except Exception as exc:
        _last_refusal = time.monotonic()
        if broker_is_redis and isinstance(exc, (*UNAVAILABLE_ERRORS, OSError)):
            redis_health.note_failure()  # not for a task that failed eagerly (tests)
        log.warning("could not queue %s%r (%s: %s)", name, args, type(exc).__name__, exc)
        return False
    return True


def _broker_is_redis() -> bool:
    return broker_url().startswith(("redis://", "rediss://"))


def broker_refused_recently() -> bool:
    return time.monotonic() - _last_refusal < BEST_EFFORT_QUIET_SECONDS


def send_on_commit(name: str, *args: Any) -> None:
    transaction.on_commit(lambda: send(name, *args))


# --- what services enqueue ---------------------------------------------------------------------
def enqueue_ai_turn(game_id: int, move_number: int) -> bool:
    """Queue the computer's turn; the sweep re-queues it if this message is lost."""
    return send(PLAY_AI_TURN, game_id, move_number)


def enqueue_ai_turn_later(game_id: int, move_number: int, countdown: float) -> bool:
    """Queue the computer's turn to run after ``countdown`` seconds (a pause between computer
    turns, so a person can follow them)."""
    return send(PLAY_AI_TURN, game_id, move_number, countdown=countdown)


def enqueue_ai_turn_on_commit(game_id: int, move_number: int, countdown: float = 0) -> None:
    # Looked up at commit time so that tests may replace ``enqueue_ai_turn``.
    if countdown > 0:
        transaction.on_commit(lambda: enqueue_ai_turn_later(game_id, move_number, countdown))
    else:
        transaction.on_commit(lambda: enqueue_ai_turn(game_id, move_number))


def enqueue_turn_deadline(game_id: int, move_number: int, deadline: datetime) -> bool:
    """Queue the timer of one turn with a short clock (a table's): it runs at ``deadline``
    and lets the computer take the seat over if the turn is still on. One task per turn,
    its countdown (seconds) well under the broker's visibility timeout; the clocks sweep takes
    over any turn whose timer is lost."""
    countdown = max(0.0, (deadline - timezone.now()).total_seconds())
    return send(EXPIRE_TURN, game_id, move_number, countdown=countdown)


def enqueue_turn_deadline_on_commit(game_id: int, move_number: int, deadline: datetime) -> None:
    transaction.on_commit(lambda: enqueue_turn_deadline(game_id, move_number, deadline))


def enqueue_analysis(game_id: int, up_to: int | None) -> bool:
    """Analyse the game's due moves up to move ``up_to`` (None: all of them, the game's
    analysis once it is over); ``games.sweep_analysis`` queues it again if this is lost.

    Best effort: not tried while this process's last send was refused within
    ``BEST_EFFORT_QUIET_SECONDS``: with a hung broker each try costs the move's request
    another socket timeout, and nobody waits on an analysis (the sweep sends it later)."""
    if broker_refused_recently():
        log.info("broker refused a message recently: the analysis of game %s waits for the "
                 "sweep", game_id)
        return False
    return send(ANALYSE_MOVES, game_id, up_to)


def enqueue_analysis_on_commit(game_id: int, up_to: int | None) -> None:
    # Looked up at commit time so that tests may replace ``enqueue_analysis``.
    transaction.on_commit(lambda: enqueue_analysis(game_id, up_to))


def enqueue_event(event_id: int) -> bool:
    """Decide the emails of one outbox event (``sweep_outbox`` does it if this is lost)."""
    return send(PROCESS_EVENT, event_id)


def enqueue_rating(game_id: int) -> bool:
    """Apply a finished game to the players' ratings (``social.sweep_ratings`` does it if
    this is lost; the rating is written once per game whatever happens)."""
    return send(RATE_GAME, game_id)


def enqueue_send(notification_id: int) -> bool:
    """Send one claimed email (``requeue_stuck`` sends it again if this is lost)."""
    return send(SEND_NOTIFICATION, notification_id)


def enqueue_push(delivery_id: int) -> bool:
    """Post one claimed push (``requeue_pushes`` sends it again if this is lost)."""
    return send(SEND_PUSH, delivery_id)


# --- accounts (accounts.services) ---------------------------------------------------------------
def send_in_background(name: str, *args: Any) -> threading.Thread:
    """Publish from a short-lived thread: the request answers without waiting for the broker.
    Account emails are published this way because sign-up and the reset request must stay fast
    with Redis hung (a publish can take two socket timeouts); nothing is lost that matters: a
    missing email is asked for again (resend, another reset request)."""

    def run() -> None:
        try:
            send(name, *args)
        finally:
            connections.close_all()  # an eager (test) task used this thread's connection

    # In the caller's context: the request id goes into the task's headers (config/celery.py).
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(run,), name=f"publish-{name}",
                              daemon=True)
    thread.start()
    return thread


def enqueue_account_email_on_commit(kind: str, user_id: int, **extra: Any) -> None:
    """An account email (verify the address, a moderator's warning) after the commit."""
    transaction.on_commit(lambda: send_in_background(ACCOUNT_EMAIL, kind, user_id, extra))


def enqueue_password_reset(email: str) -> None:
    """The worker looks the address up and mails a link only if an account has it: the request
    does the same work, and answers as fast, for a known and an unknown address."""
    send_in_background(PASSWORD_RESET_EMAIL, email)

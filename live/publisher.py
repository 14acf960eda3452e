"""Publishing: any app calls ``publish`` after its write commits (or ``publish_on_commit``
inside the transaction). The event types are open; the games' are listed in live/README.md.

``data`` must hold only what ``user_id`` may see: the stream sends it as is.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import transaction

from config import redis_health
from config.unavailable import UNAVAILABLE_ERRORS
from live.backends import get_backend

log = logging.getLogger(__name__)


Pending = tuple[int, str, dict[str, Any], int | None]  # user, type, data, game
_batch: ContextVar[list[Pending] | None] = ContextVar("live_batch", default=None)


@contextmanager
def batched(*, flush: bool = True) -> Iterator[list[Pending] | None]:
    """Events published inside are stored together when it ends: one write to the backend
    (one INSERT of every row, or one Redis pipeline) for all the events of a move, its
    players' copies, the turn's deadline and whose turn it is.

    ``flush=False``: the caller stores the yielded events itself (``store``, or
    ``games.effects.one_publication``: in the pipeline that also carries the move's Celery
    messages). Inside another batch it yields None: the outer batch stores ours too."""
    if _batch.get() is not None:
        yield None
        return
    pending: list[Pending] = []
    token = _batch.set(pending)
    try:
        yield pending
    finally:
        _batch.reset(token)
        if flush:
            store(pending)


def store(pending: list[Pending]) -> None:
    """Store a batch's events in one write (logged, never raised, if it fails)."""
    if pending and not skipped(f"{len(pending)} events"):
        try:
            get_backend().append_many(pending)
        except Exception as exc:
            failed(f"{len(pending)} events", exc)


def publish(user_id: int, type_: str, data: dict[str, Any], *, game_id: int | None = None
            ) -> str | None:
    """Store the event for the player's streams; its id, or None when the store failed (a
    live update is a convenience: the write stands, the client catches up on reload) or
    when it waits in a batch (``batched``).

    Not even tried for a few seconds after this process found Redis failing
    (config/redis_health.py): with Redis hung each try would cost the request a timeout."""
    pending = _batch.get()
    if pending is not None:
        pending.append((user_id, type_, data, game_id))
        return None
    what = f"{type_} for user {user_id}"
    if skipped(what):
        return None
    try:
        return get_backend().append(user_id, type_, data, game_id)
    except Exception as exc:
        failed(what, exc)
        return None


def _on_redis() -> bool:
    return get_backend().name == "redis"


def skipped(what: str) -> bool:
    if _on_redis() and redis_health.failed_recently():
        log.debug("live: %s not stored: Redis failed recently", what)
        return True
    return False


def failed(what: str, exc: Exception) -> None:
    """Log a failed store; an outage (not, say, one refused command) also makes the other
    Redis users of this process skip Redis for a few seconds."""
    if not _on_redis() or not isinstance(exc, (*UNAVAILABLE_ERRORS, OSError)):
        log.warning("live: publishing %s failed (%s: %s)", what, type(exc).__name__, exc)
        return
    redis_health.note_failure()
    log.warning("live: publishing %s failed (%s: %s); live events are skipped for %.0f s",
                what, type(exc).__name__, exc, redis_health.QUIET_SECONDS)


def publish_on_commit(user_id: int, type_: str, data: dict[str, Any], *,
                      game_id: int | None = None) -> None:
    transaction.on_commit(lambda: publish(user_id, type_, data, game_id=game_id))

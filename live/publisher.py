"""Publishing: any app calls ``publish`` after its write commits (or ``publish_on_commit``
inside the transaction). The event types are open; the games' are listed in live/README.md.

``data`` must hold only what ``user_id`` may see: the stream sends it as is.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from config import redis_health
from live.backends import get_backend

log = logging.getLogger(__name__)


def publish(user_id: int, type_: str, data: dict[str, Any], *, game_id: int | None = None
            ) -> str | None:
    """Store the event for the player's streams; its id, or None when the store failed (a
    live update is a convenience: the write stands, the client catches up on reload).

    Not even tried for a few seconds after this process found Redis failing
    (config/redis_health.py): with Redis hung each try would cost the request a timeout."""
    if redis_health.failed_recently():
        log.debug("live: %s for user %s not stored: Redis failed recently", type_, user_id)
        return None
    try:
        return get_backend().append(user_id, type_, data, game_id)
    except Exception as exc:
        redis_health.note_failure()
        log.warning("live: publishing %s for user %s failed (%s: %s); live events are skipped "
                    "for %.0f s", type_, user_id, type(exc).__name__, exc,
                    redis_health.QUIET_SECONDS)
        return None


def publish_on_commit(user_id: int, type_: str, data: dict[str, Any], *,
                      game_id: int | None = None) -> None:
    transaction.on_commit(lambda: publish(user_id, type_, data, game_id=game_id))

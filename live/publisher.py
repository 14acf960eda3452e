"""Publishing: any app calls ``publish`` after its write commits (or ``publish_on_commit``
inside the transaction). The event types are open; the games' are listed in live/README.md.

``data`` must hold only what ``user_id`` may see: the stream sends it as is.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from live.backends import get_backend

log = logging.getLogger(__name__)


def publish(user_id: int, type_: str, data: dict[str, Any], *, game_id: int | None = None
            ) -> str | None:
    """Store the event for the player's streams; its id, or None when the store failed (a
    live update is a convenience: the write stands, the client catches up on reload)."""
    try:
        return get_backend().append(user_id, type_, data, game_id)
    except Exception:
        log.warning("live: publishing %s for user %s failed", type_, user_id, exc_info=True)
        return None


def publish_on_commit(user_id: int, type_: str, data: dict[str, Any], *,
                      game_id: int | None = None) -> None:
    transaction.on_commit(lambda: publish(user_id, type_, data, game_id=game_id))

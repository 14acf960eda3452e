"""What a backend does: store an event for a player, read a player's events after a cursor,
tell whether a cursor is still within the retention window, and wake this process's streams
when events arrive (``run_waker``). Stream slots (the per-player limit) are counted in this
process unless the backend shares them between processes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from live.events import Event


class Backend:
    name = "base"

    def __init__(self) -> None:
        self._slots: dict[int, set[str]] = defaultdict(set)

    # --- writing (sync: called after a commit, in a web request or a Celery task) --------
    def append(self, user_id: int, type_: str, data: dict[str, Any], game_id: int | None) -> str:
        raise NotImplementedError

    def append_many(self, events: list[tuple[int, str, dict[str, Any], int | None]]) -> None:
        """Store several events (user, type, data, game) in one write where the backend can."""
        for user_id, type_, data, game_id in events:
            self.append(user_id, type_, data, game_id)

    # --- reading (async: the stream views) ------------------------------------------------
    async def latest_id(self, user_id: int) -> str:
        """A cursor for a stream that starts now (it receives events after it)."""
        raise NotImplementedError

    async def read_after(self, user_id: int, after: str, limit: int) -> list[Event]:
        raise NotImplementedError

    async def replayable(self, user_id: int, after: str) -> bool:
        """Whether every event after ``after`` is still stored (else the client resyncs)."""
        raise NotImplementedError

    async def run_waker(
        self, wake: Callable[[int], None], wake_all: Callable[[], None]
    ) -> None:
        """Runs for ever: calls ``wake(user_id)`` whenever that player may have new events, and
        ``wake_all()`` once it listens (streams opened before may have missed a wake-up)."""
        raise NotImplementedError

    # --- the per-player stream limit ----------------------------------------------------------
    async def acquire_slot(self, user_id: int, stream_id: str, limit: int) -> bool:
        slots = self._slots[user_id]
        if len(slots) >= limit:
            return False
        slots.add(stream_id)
        return True

    async def refresh_slot(self, user_id: int, stream_id: str) -> None:
        return None

    async def release_slot(self, user_id: int, stream_id: str) -> None:
        slots = self._slots.get(user_id)
        if slots is not None:
            slots.discard(stream_id)
            if not slots:
                del self._slots[user_id]

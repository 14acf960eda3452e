"""This process's streams, by player: the backend's waker wakes them (one subscription or one
poll for the whole process, however many streams are open)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict

from live.backends import get_backend

log = logging.getLogger(__name__)


class Hub:
    def __init__(self) -> None:
        self._waiting: dict[int, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task | None = None

    def register(self, user_id: int) -> asyncio.Event:
        event = asyncio.Event()
        self._waiting[user_id].add(event)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return event

    def unregister(self, user_id: int, event: asyncio.Event) -> None:
        events = self._waiting.get(user_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._waiting[user_id]

    def wake(self, user_id: int) -> None:
        for event in self._waiting.get(user_id, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self._waiting.values():
            for event in events:
                event.set()

    @property
    def stream_count(self) -> int:
        return sum(len(events) for events in self._waiting.values())

    async def _run(self) -> None:
        while True:
            try:
                await get_backend().run_waker(self.wake, self.wake_all)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: event waker failed, restarting in 1 s", exc_info=True)
            await asyncio.sleep(1)
            # Wake-ups may have been missed meanwhile: every stream reads its backlog.
            self.wake_all()


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub()
    return hub

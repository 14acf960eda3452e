"""This process's streams, by player: the backend's waker wakes them (one subscription or one
poll for the whole process, however many streams are open), and one timer drives every
stream's heartbeat and gives up on responses stuck in send.

An open stream costs a ``Subscriber`` here (a few attributes and, while it waits, one future):
no task, queue, timer or connection of its own. Its response reads the backend itself when
woken, so a client that stops reading leaves its events in the backend, not in memory.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings

from live.backends import get_backend

log = logging.getLogger(__name__)


class Subscriber:
    """One open stream: whether it has events to read, when its heartbeat is due, whether the
    process is shutting down, and since when its response waits in send (None: it does not)."""

    __slots__ = ("user_id", "task", "woken", "draining", "beat_at", "sending_since", "_waiter")

    def __init__(self, user_id: int, task: asyncio.Task | None, beat_at: float) -> None:
        self.user_id = user_id
        self.task = task  # the response's task: cancelled when its send is stuck
        self.woken = False
        self.draining = False
        self.beat_at = beat_at
        self.sending_since: float | None = None
        self._waiter: asyncio.Future[None] | None = None

    def wake(self) -> None:
        self.woken = True
        self.notify()

    def drain(self) -> None:
        self.draining = True
        self.notify()

    def notify(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until woken, drained, or the hub's timer says the heartbeat is due."""
        if self.woken or self.draining:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None


class Hub:
    def __init__(self) -> None:
        self._streams: dict[int, set[Subscriber]] = {}
        self._task: asyncio.Task | None = None
        self._timer: asyncio.TimerHandle | None = None

    def register(self, user_id: int) -> Subscriber:
        loop = asyncio.get_running_loop()
        subscriber = Subscriber(user_id, asyncio.current_task(),
                                loop.time() + settings.LIVE_HEARTBEAT_SECONDS)
        self._streams.setdefault(user_id, set()).add(subscriber)
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        if self._timer is None:
            self._timer = loop.call_later(self._tick_seconds(), self._tick)
        return subscriber

    def unregister(self, subscriber: Subscriber) -> None:
        streams = self._streams.get(subscriber.user_id)
        if streams is not None:
            streams.discard(subscriber)
            if not streams:
                del self._streams[subscriber.user_id]

    def wake(self, user_id: int) -> None:
        for subscriber in self._streams.get(user_id, ()):
            subscriber.wake()

    def wake_all(self) -> None:
        for streams in self._streams.values():
            for subscriber in streams:
                subscriber.wake()

    @property
    def stream_count(self) -> int:
        return sum(len(streams) for streams in self._streams.values())

    @staticmethod
    def _tick_seconds() -> float:
        # A heartbeat comes at most a tick late; a stuck send is cut at most a tick late.
        return min(1.0, settings.LIVE_HEARTBEAT_SECONDS / 4, settings.LIVE_QUEUE_WAIT_SECONDS / 4)

    def _tick(self) -> None:
        """The process's one timer: wakes the streams whose heartbeat is due, and cancels the
        responses that could not send for ``LIVE_QUEUE_WAIT_SECONDS`` (a client that stopped
        reading: it reconnects with Last-Event-ID and loses nothing)."""
        if not self._streams:
            self._timer = None
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        give_up = settings.LIVE_QUEUE_WAIT_SECONDS
        for streams in self._streams.values():
            for subscriber in streams:
                since = subscriber.sending_since
                if since is not None:
                    if now - since > give_up and subscriber.task is not None:
                        log.info("live: user %s does not read its stream: closing it",
                                 subscriber.user_id)
                        subscriber.sending_since = None  # cancelled once
                        subscriber.task.cancel()
                elif subscriber.beat_at <= now:
                    subscriber.notify()
        self._timer = loop.call_later(self._tick_seconds(), self._tick)

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

"""One open stream: replay from Last-Event-ID (or one ``resync``), then events as the hub wakes
it, a heartbeat comment every ``LIVE_HEARTBEAT_SECONDS`` (which also re-checks the
credentials: a revoked token or a suspended account ends the stream).

Events pass through a queue of ``LIVE_QUEUE_SIZE``: a client that stops reading leaves the
response blocked in send, the queue fills, and after ``LIVE_QUEUE_WAIT_SECONDS`` without room
the stream is cancelled (the client reconnects with Last-Event-ID and loses nothing).
When the process shuts down the stream ends with a ``reconnect`` event (live/shutdown.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from live.backends import get_backend
from live.events import Event
from live.hub import get_hub
from live.shutdown import DrainSignal, get_drain, reconnect_event

log = logging.getLogger(__name__)

RETRY_MS = 2000


async def event_stream(
    *,
    user_id: int,
    stream_id: str,
    last_event_id: str | None,
    still_allowed: Callable[[], Awaitable[bool]],
    game_id: int | None = None,
) -> AsyncIterator[bytes]:
    release_request_thread()
    backend = get_backend()
    hub = get_hub()
    wake = hub.register(user_id)
    queue: asyncio.Queue[Event | DrainSignal] = asyncio.Queue(maxsize=settings.LIVE_QUEUE_SIZE)
    response_task = asyncio.current_task()
    pump: asyncio.Task | None = None
    drain = get_drain()
    drain.add(queue)
    try:
        if drain.started:  # admitted while the process began to shut down
            yield reconnect_event()
            return
        # The cursor is fixed before the first bytes go out: a client that has read
        # ": connected" receives every event published after that.
        resync = False
        if last_event_id and await backend.replayable(user_id, last_event_id):
            cursor = last_event_id
            wake.set()
        else:
            cursor = await backend.latest_id(user_id)
            resync = bool(last_event_id)
        yield f"retry: {RETRY_MS}\n: connected\n\n".encode()
        if resync:
            yield Event(id=cursor, type="resync", data={"game": game_id}).encode()
        pump = asyncio.get_running_loop().create_task(
            _pump(backend, user_id, cursor, game_id, wake, queue, response_task)
        )
        heartbeat = settings.LIVE_HEARTBEAT_SECONDS
        next_beat = time.monotonic() + heartbeat
        while True:
            timeout = next_beat - time.monotonic()
            if timeout > 0:
                try:
                    event = await asyncio.wait_for(queue.get(), timeout)
                except TimeoutError:
                    event = None
                if isinstance(event, DrainSignal):
                    yield reconnect_event()
                    return
                if event is not None:
                    yield event.encode()
                    continue
            if pump.done():
                return  # the pump failed (logged): the client reconnects
            if not await still_allowed():
                return
            await backend.refresh_slot(user_id, stream_id)
            yield b": heartbeat\n\n"
            next_beat = time.monotonic() + heartbeat
    finally:
        drain.discard(queue)
        if pump is not None:
            pump.cancel()
        hub.unregister(user_id, wake)
        try:
            await backend.release_slot(user_id, stream_id)
        except Exception:  # the slot expires on its own
            log.warning("live: releasing a stream slot failed", exc_info=True)


def release_request_thread() -> None:
    """Let the thread Django gave this request go, once its response streams.

    Django's ASGI handler runs each request in a ``ThreadSensitiveContext``: its sync calls (the
    sync middleware, the admission's ORM calls) get a thread of the request's own, kept until
    the response ends. An idle stream would hold one for hours: 1,000 streams held 1,000 idle
    threads, ~100 kB resident each (bench/events.py). When the first bytes go out the
    middleware is done; the stream's own database work runs on the shared pool (not
    thread-sensitive), so the thread is closed now, its database connections first."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.submit(connections.close_all)
        executor.shutdown(wait=False)  # the thread ends after that call; nothing waits here


async def _pump(
    backend, user_id: int, cursor: str, game_id: int | None, wake: asyncio.Event,
    queue: asyncio.Queue, response_task: asyncio.Task | None,
) -> None:
    try:
        while True:
            await wake.wait()
            wake.clear()
            while True:
                batch = await backend.read_after(user_id, cursor, queue.maxsize)
                for event in batch:
                    cursor = event.id
                    if game_id is not None and event.game_id != game_id:
                        continue
                    try:
                        queue.put_nowait(event)
                    except asyncio.QueueFull:
                        await asyncio.wait_for(
                            queue.put(event), settings.LIVE_QUEUE_WAIT_SECONDS
                        )
                if len(batch) < queue.maxsize:
                    break
    except TimeoutError:
        log.info("live: user %s does not read its stream: closing it", user_id)
        if response_task is not None:
            response_task.cancel()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.warning("live: reading events failed", exc_info=True)

"""One open stream: replay from Last-Event-ID (or one ``resync``), then events as the hub wakes
it, a heartbeat comment every ``LIVE_HEARTBEAT_SECONDS`` (which also re-checks the
credentials: a revoked token or a suspended account ends the stream).

The response reads the backend itself when woken, ``LIVE_QUEUE_SIZE`` events at a time, and
sends them: nothing is buffered per stream, and an idle stream is a ``hub.Subscriber`` and this
suspended generator (no task, queue or timer of its own: the hub's one timer drives the
heartbeats). A client that stops reading leaves the response blocked in send; after
``LIVE_QUEUE_WAIT_SECONDS`` the hub cancels it (the client reconnects with Last-Event-ID and
loses nothing). When the process shuts down the stream ends with a ``reconnect`` event
(live/shutdown.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections

from live.backends import get_backend
from live.events import Event
from live.hub import get_hub
from live.shutdown import get_drain, reconnect_event

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
    loop = asyncio.get_running_loop()
    hub = get_hub()
    me = hub.register(user_id)
    drain = get_drain()
    drain.add(me)
    try:
        if drain.started:  # admitted while the process began to shut down
            yield reconnect_event()
            return
        # The cursor is fixed before the first bytes go out: a client that has read
        # ": connected" receives every event published after that.
        resync = False
        if last_event_id and await backend.replayable(user_id, last_event_id):
            cursor = last_event_id
            me.woken = True
        else:
            cursor = await backend.latest_id(user_id)
            resync = bool(last_event_id)
        yield f"retry: {RETRY_MS}\n: connected\n\n".encode()
        if resync:
            yield Event(id=cursor, type="resync", data={"game": game_id}).encode()
        limit = settings.LIVE_QUEUE_SIZE
        heartbeat = settings.LIVE_HEARTBEAT_SECONDS
        while True:
            if me.draining:
                # Events read but not sent are dropped: the reconnect replays them.
                yield reconnect_event()
                return
            # Before reading: a busy stream still re-checks its credentials on time.
            if me.beat_at <= loop.time():
                if not await still_allowed():
                    return
                await backend.refresh_slot(user_id, stream_id)
                me.sending_since = loop.time()
                yield b": heartbeat\n\n"
                me.sending_since = None
                me.beat_at = loop.time() + heartbeat
                continue
            if me.woken:
                me.woken = False
                try:
                    batch = await backend.read_after(user_id, cursor, limit)
                except Exception:
                    log.warning("live: reading events failed", exc_info=True)
                    return  # the client reconnects with its Last-Event-ID
                if len(batch) >= limit:
                    me.woken = True  # more after these: read on once they are sent
                for event in batch:
                    if me.draining:
                        break
                    cursor = event.id
                    if game_id is not None and event.game_id != game_id:
                        continue
                    me.sending_since = loop.time()
                    yield event.encode()
                    me.sending_since = None
                continue
            await me.wait()
    finally:
        drain.discard(me)
        hub.unregister(me)
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

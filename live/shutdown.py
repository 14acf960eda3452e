"""Draining on SIGTERM: open event streams end at once with a last ``reconnect`` event.

A stream never ends by itself, so without this a server waits for it until its graceful timeout
and then cuts it (gunicorn took 31.8 s to stop with one stream open; Docker kills after 10 s).
At ASGI lifespan startup (``config.asgi``), inside the server's own signal handling, SIGTERM
and SIGINT are chained: this process's streams first get

    retry: <0.5-3 s>
    event: reconnect
    data: {"type": "reconnect", "reason": "shutdown"}

and end; then the server's handler stops accepting and waits for the responses, which are
now all short. The event has no ``id``: the client's Last-Event-ID stays the last event it
received, so its reconnect (EventSource does it by itself after ``retry``) replays everything
after it from another process. Events the stream had fetched but not yet sent are dropped for
the same reason: the replay has them. The retry is spread so that a restart's reconnects do
not arrive at the same instant.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
from typing import Protocol
from weakref import WeakKeyDictionary

log = logging.getLogger(__name__)

RECONNECT_MS = (500, 3000)


class Drainable(Protocol):
    def drain(self) -> None:
        """End with a reconnect event as soon as possible, sending nothing more before it."""


class Drain:
    """This event loop's open streams and whether it is shutting down."""

    def __init__(self) -> None:
        self.started = False
        self._streams: set[Drainable] = set()

    def add(self, stream: Drainable) -> None:
        self._streams.add(stream)

    def discard(self, stream: Drainable) -> None:
        self._streams.discard(stream)

    def begin(self) -> None:
        if self.started:
            return
        self.started = True
        log.info("live: shutting down, ending %d open event stream(s) with a reconnect event",
                 len(self._streams))
        for stream in list(self._streams):
            stream.drain()


_drains: WeakKeyDictionary[asyncio.AbstractEventLoop, Drain] = WeakKeyDictionary()


def get_drain() -> Drain:
    loop = asyncio.get_running_loop()
    drain = _drains.get(loop)
    if drain is None:
        drain = _drains[loop] = Drain()
    return drain


def reconnect_event() -> bytes:
    payload = json.dumps({"type": "reconnect", "reason": "shutdown"}, separators=(",", ":"))
    return f"retry: {random.randint(*RECONNECT_MS)}\nevent: reconnect\ndata: {payload}\n\n".encode()


def install_signal_handlers() -> None:
    """Chain SIGTERM and SIGINT in front of the server's handlers (call from the event loop,
    after the server installed its own: ASGI lifespan startup)."""
    loop = asyncio.get_running_loop()
    drain = get_drain()
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if not callable(previous):
            continue  # no server handler to go on to: leave the default behaviour alone

        def handler(number, frame, previous=previous) -> None:
            loop.call_soon_threadsafe(drain.begin)
            previous(number, frame)

        signal.signal(signum, handler)

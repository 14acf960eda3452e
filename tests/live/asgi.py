"""Drive the project's ASGI application in this process: open a stream, read its events,
disconnect, or play a client that never reads."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field


@dataclass
class Sse:
    id: str | None
    type: str | None
    data: dict | None


def parse(chunks: bytes) -> tuple[list[Sse], list[str]]:
    """(events, comments) of an SSE body."""
    events, comments = [], []
    for block in chunks.decode().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                comments.append(line[1:].strip())
            elif ": " in line:
                key, value = line.split(": ", 1)
                fields[key] = value
        if "event" in fields:
            events.append(Sse(fields.get("id"), fields["event"], json.loads(fields["data"])))
    return events, comments


@dataclass
class Stream:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    done: asyncio.Event = field(default_factory=asyncio.Event)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    disconnect: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None

    @property
    def events(self) -> list[Sse]:
        return parse(self.body)[0]

    @property
    def comments(self) -> list[str]:
        return parse(self.body)[1]

    def json(self) -> dict:
        return json.loads(self.body)

    async def wait_until(self, predicate, timeout: float = 10) -> None:
        async def loop() -> None:
            while not predicate(self):
                self.changed.clear()
                if self.done.is_set() and not predicate(self):
                    raise AssertionError(f"stream ended: {self.body[-500:]!r}")
                await self.changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def close(self) -> None:
        self.disconnect.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)


async def open_stream(path: str, headers: dict[str, str] | None = None, *,
                      never_read: bool = False, method: str = "GET") -> Stream:
    from config.asgi import application

    stream = Stream()
    raw_headers = [(b"host", b"testserver")] + [
        (k.lower().encode(), v.encode()) for k, v in (headers or {}).items()
    ]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": raw_headers, "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent_request = False

    async def receive() -> dict:
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await stream.disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            stream.status = message["status"]
            stream.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
            stream.started.set()
        elif message["type"] == "http.response.body":
            if never_read and stream.body:
                await asyncio.Event().wait()  # a client that stops reading: send blocks
            stream.body += message.get("body", b"")
        stream.changed.set()

    async def run() -> None:
        try:
            await application(scope, receive, send)
        finally:
            stream.done.set()
            stream.changed.set()

    stream.task = asyncio.get_running_loop().create_task(run())
    await asyncio.wait_for(stream.started.wait(), 10)
    if stream.status == 200:
        # The server fixes where the stream starts before it says "connected": events
        # published after that are this stream's.
        await stream.wait_until(lambda s: b": connected" in s.body or s.done.is_set())
    return stream

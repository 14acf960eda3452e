"""A WSGI application served from an ASGI server's event loop on a pool of threads, with as few
hand-offs between the loop and the threads as a request allows.

a2wsgi's adapter (which this replaces) runs the request in a thread that asks the loop for the
body and then hands every piece of the response (the status, each chunk, the end) back to the
loop, waiting each time for the loop to take it. A CPU-bound request holds the GIL, so each of
those round trips waits for a thread switch: the move POST ran ~14 % slower than under
gunicorn's threaded WSGI workers. Here the loop reads the whole body first (bounded by
``max_body``; a longer declared one is left unread for the application to refuse), the thread
runs the application and collects the response, and the loop sends it: one hand-off each way.
A response longer than ``buffer_limit`` is streamed from the thread chunk by chunk instead, so
a large one is never held whole in memory.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from a2wsgi.wsgi import build_environ

if TYPE_CHECKING:
    from a2wsgi.asgi_typing import HTTPScope

Message = dict[str, Any]
Send = Callable[[Message], Coroutine[Any, Any, None]]  # an ASGI server's async send
Receive = Callable[[], Awaitable[Message]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ClientGone(Exception):
    """The client disconnected before its request body arrived."""


def _declared_length(scope: Message) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


def _encode_headers(headers: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(name.strip().lower().encode("latin1"), value.strip().encode("latin1"))
            for name, value in headers]


def _start_message(status: str, headers: list[tuple[str, str]]) -> Message:
    return {"type": "http.response.start", "status": int(status.split(" ", 1)[0]),
            "headers": _encode_headers(headers)}


class ThreadedWSGI:
    def __init__(
        self,
        app: WSGIApp,
        threads: int,
        *,
        max_body: int = 10 * 1024 * 1024,
        buffer_limit: int = 1024 * 1024,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.buffer_limit = buffer_limit
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wsgi")

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http", scope["type"]
        if _declared_length(scope) > self.max_body:
            # Not read at all: the application refuses it by its Content-Length in its own
            # words (the API's 413 envelope), as it would under a WSGI server.
            body: bytes | None = b""
        else:
            try:
                body = await self._read_body(receive)
            except ClientGone:
                return
        if body is None:  # no length given, and longer than we hold
            await send(_start_message("413 Content Too Large", [
                ("content-type", "text/plain"), ("connection", "close")]))
            await send({"type": "http.response.body", "body": b"Request body too large.\n"})
            return
        # a2wsgi types its scope and environ as TypedDicts (Django takes the environ as a dict)
        # and the body as its own Body class, where any file object serves as wsgi.input.
        stream = io.BytesIO(body)
        environ = cast(
            "dict[str, Any]",
            build_environ(cast("HTTPScope", scope), stream),  # type: ignore[arg-type]
        )
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()  # each request its own, as under a WSGI server
        collected = await loop.run_in_executor(
            self.executor, partial(context.run, self._run, environ, loop, send)
        )
        if collected is not None:  # else the thread streamed the response itself
            start, content = collected
            await send(start)
            await send({"type": "http.response.body", "body": content})

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole request body, or None when it is longer than ``max_body``."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _run(
        self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, send: Send
    ) -> tuple[Message, bytes] | None:
        """In a pool thread: the application's response, whole when it is short (the loop
        sends it), else streamed from here, chunk by chunk (returns None)."""
        response: list[Any] = []
        pending: list[bytes] = []
        streaming = False
        size = 0

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None):
            if exc_info is not None and streaming:
                raise exc_info[1].with_traceback(exc_info[2])
            response[:] = [status, headers]
            return write

        def send_now(message: Message) -> None:
            asyncio.run_coroutine_threadsafe(send(message), loop).result()

        def emit(chunk: bytes) -> None:
            """Hold ``chunk`` while the response is short, else send it (in order)."""
            nonlocal streaming, size
            if not chunk:
                return
            if streaming:
                send_now({"type": "http.response.body", "body": chunk, "more_body": True})
                return
            pending.append(chunk)
            size += len(chunk)
            if size > self.buffer_limit:
                streaming = True
                send_now(_start_message(*response))
                send_now({"type": "http.response.body", "body": b"".join(pending),
                          "more_body": True})
                pending.clear()

        write = emit  # the legacy WSGI write(): in order with the iterable's chunks
        iterable = self.app(environ, start_response)
        try:
            for chunk in iterable:
                emit(chunk)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()  # in this thread: Django's request_finished sees its own connections
        if streaming:
            send_now({"type": "http.response.body", "body": b"".join(pending)})
            return None
        return _start_message(*response), b"".join(pending)

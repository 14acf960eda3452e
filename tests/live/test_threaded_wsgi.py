"""config/threaded_wsgi.py: a WSGI app behind an event loop, one hand-off each way per request."""

from __future__ import annotations

import asyncio
import threading

from config.threaded_wsgi import ThreadedWSGI


def run_request(app, *, body_chunks=(b"",), path="/p", query=b"", headers=()) -> dict:
    """Send one request through ``app`` and collect what it answers."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query,
        "root_path": "", "headers": [(b"host", b"testserver"), *headers],
        "client": ("10.1.2.3", 40000), "server": ("testserver", 80),
    }
    messages = [
        {"type": "http.request", "body": chunk, "more_body": i < len(body_chunks) - 1}
        for i, chunk in enumerate(body_chunks)
    ]
    sent: list[dict] = []

    async def receive() -> dict:
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope, receive, send), 10))
    start = next(m for m in sent if m["type"] == "http.response.start")
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert not bodies[-1].get("more_body", False), "the response must end"
    return {"status": start["status"], "headers": dict(start["headers"]),
            "body": b"".join(m.get("body", b"") for m in bodies), "messages": len(sent)}


SEEN: list[dict] = []


def echo_app(environ, start_response):
    body = environ["wsgi.input"].read()
    SEEN.append({
        "thread": threading.current_thread().name,
        "path": environ["PATH_INFO"], "query": environ["QUERY_STRING"],
        "remote": environ["REMOTE_ADDR"], "type": environ.get("CONTENT_TYPE", ""),
    })
    start_response("201 Created", [("Content-Type", "text/plain")])
    return [b"got:", body]


def test_a_short_response_is_sent_whole_after_the_body_is_read_in_the_loop():
    app = ThreadedWSGI(echo_app, threads=2)
    answer = run_request(app, body_chunks=(b"ab", b"cd", b"ef"), path="/caf\u00e9", query=b"x=1",
                         headers=[(b"content-type", b"application/json")])
    assert answer["status"] == 201
    assert answer["body"] == b"got:abcdef"
    assert answer["messages"] == 2  # the start and one body: nothing streamed
    seen = SEEN[-1]
    assert seen["thread"].startswith("wsgi")
    assert seen["path"] == "/caf\u00e9".encode().decode("latin1")  # WSGI's bytes-as-latin-1
    assert seen["query"] == "x=1" and seen["remote"] == "10.1.2.3"
    assert seen["type"] == "application/json"


def test_a_body_over_the_limit_is_refused_with_413_before_the_app_runs():
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    app_limited = ThreadedWSGI(app, threads=1, max_body=10)
    answer = run_request(app_limited, body_chunks=(b"x" * 8, b"y" * 8))
    assert answer["status"] == 413 and not called


def test_a_long_response_is_streamed_from_the_thread_and_closed_there():
    closed_in: list[str] = []

    class Chunks:
        def __iter__(self):
            for i in range(50):
                yield bytes([65 + i % 26]) * 1000

        def close(self):
            closed_in.append(threading.current_thread().name)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return Chunks()

    answer = run_request(ThreadedWSGI(app, threads=1, buffer_limit=4096))
    assert answer["status"] == 200
    assert len(answer["body"]) == 50_000
    assert answer["body"][:1000] == b"A" * 1000 and answer["body"][-1000:] == b"X" * 1000
    assert answer["messages"] > 3  # streamed in pieces, not held whole
    assert closed_in and closed_in[0].startswith("wsgi")


def test_write_and_iterable_keep_their_order_and_a_client_gone_early_runs_nothing():
    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"first,")
        return [b"second"]

    assert run_request(ThreadedWSGI(app, threads=1))["body"] == b"first,second"

    called = []

    def never(environ, start_response):
        called.append(True)
        return []

    async def gone() -> dict:
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        raise AssertionError("nothing is sent to a client that left")

    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": "/",
             "query_string": b"", "headers": []}
    asyncio.run(ThreadedWSGI(never, threads=1)(scope, gone, send))
    assert not called


def test_written_and_returned_chunks_stream_in_order_past_the_limit():
    def app(environ, start_response):
        write = start_response("200 OK", [])
        for _ in range(5):
            write(b"w" * 10)

        def rest():
            yield b"a" * 10
            write(b"W")  # a write() between two chunks of the iterable stays between them
            yield b"b" * 3

        return rest()

    answer = run_request(ThreadedWSGI(app, threads=1, buffer_limit=5))
    assert answer["body"] == b"w" * 50 + b"a" * 10 + b"W" + b"b" * 3
    assert answer["messages"] > 3  # streamed: write() counts toward the limit


def test_a_declared_length_over_the_limit_is_left_to_the_application():
    seen = []

    def app(environ, start_response):
        seen.append((environ["CONTENT_LENGTH"], environ["wsgi.input"].read()))
        start_response("413 Content Too Large", [("Content-Type", "application/json")])
        return [b'{"error": {"code": "request_too_large"}}']

    answer = run_request(ThreadedWSGI(app, threads=1, max_body=10), body_chunks=(b"x" * 8,),
                         headers=[(b"content-length", b"5000")])
    assert answer["status"] == 413 and b"request_too_large" in answer["body"]
    assert seen == [("5000", b"")]  # the app decided, without the body being read

"""config.asgi: the event streams on Django's ASGI handler, the sync API on threads."""

import asyncio
import threading

import pytest

from config import asgi, health


def test_only_async_views_go_to_the_asgi_handler():
    assert asgi.is_async_view("/api/v1/events")
    assert asgi.is_async_view("/api/v1/games/12/events")
    assert not asgi.is_async_view("/api/v1/me")
    assert not asgi.is_async_view("/api/v1/games/12/moves")
    assert not asgi.is_async_view("/healthz")
    assert not asgi.is_async_view("/no/such/page")


async def _get(path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000), "server": ("testserver", 80),
    }
    status, body = 0, b""
    requested = False

    async def receive() -> dict:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    await asyncio.wait_for(asgi.application(scope, receive, send), 20)
    return status, body


@pytest.mark.django_db(transaction=True)
def test_sync_requests_of_one_process_run_at_the_same_time(monkeypatch):
    # Two health checks that can only finish together: under Django's own ASGI handler (one
    # thread for every sync view of the process) the first would wait for ever for the second.
    both_inside = threading.Barrier(2, timeout=10)
    monkeypatch.setattr(health, "CHECKS", {"database": both_inside.wait})

    async def two_at_once():
        return await asyncio.gather(_get("/healthz"), _get("/healthz"))

    results = asyncio.run(two_at_once())
    assert [status for status, _ in results] == [200, 200], results


@pytest.mark.django_db(transaction=True)
def test_the_api_answers_through_the_threads_with_its_envelope():
    status, body = asyncio.run(_get("/api/v1/me"))
    assert status == 401
    assert b'"not_authenticated"' in body

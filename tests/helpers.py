"""Shared test helpers (import as ``from tests.helpers import ...``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

PASSWORD = "s3cret-Pass!"


def assert_error(response, status: int, code: str) -> dict:
    """Assert the response is the error envelope with this status and code; return the error."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    return body["error"]


def at_once(*calls: Callable[[], Any], timeout: float = 30) -> list[Any]:
    """Run ``calls`` together, each in its own thread on its own database connection, lined up
    on a barrier so that they hit the server at the same moment; their results in order. A
    call's exception is raised here."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(i: int) -> None:
        from django.db import connection

        try:
            barrier.wait(timeout=10)
            results[i] = calls[i]()
        except BaseException as exc:  # re-raised in the calling thread
            failures.append(exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not failures, failures
    return results

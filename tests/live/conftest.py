import asyncio

import pytest
from asgiref.sync import sync_to_async


@pytest.fixture(params=["db", pytest.param("redis", marks=pytest.mark.redis)])
def live_backend(request, settings):
    """Both backends; short heartbeat and poll so tests run fast."""
    settings.LIVE_BACKEND = request.param
    settings.LIVE_POLL_SECONDS = 0.05
    settings.LIVE_HEARTBEAT_SECONDS = 5
    return request.param


def run(coro):
    """Run a test's coroutine; then close the connection the async ORM calls opened in
    asgiref's sync thread (no request end closes it here), or the test database cannot be
    dropped at the end of the run."""
    from asgiref.sync import SyncToAsync
    from django.db import connections

    try:
        return asyncio.run(coro)
    finally:
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def apublish(*args, **kwargs):
    """Publish from a worker thread, as a sync caller would (and close its connection)."""
    from django.db import connection

    from live.publisher import publish

    def call():
        try:
            return publish(*args, **kwargs)
        finally:
            connection.close()

    return sync_to_async(call, thread_sensitive=False)()

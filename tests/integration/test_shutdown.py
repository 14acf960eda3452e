"""SIGTERM (what `docker compose stop` sends) with an event stream open on the production web
server: the stream ends within a few seconds with a last ``reconnect`` event, gunicorn exits well
inside compose's stop grace period, every line it wrote is JSON, and the client's reconnect to
another web process replays what it missed from its Last-Event-ID."""

import signal
import time

import pytest

from accounts import tokens
from live.publisher import publish
from tests.integration.servers import json_lines, start_gunicorn
from tests.integration.workers import worker_database_url
from tests.live.server import SseClient

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_sigterm_ends_open_streams_with_a_reconnect_event(gunicorn_server, alice, settings):
    assert settings.LIVE_BACKEND == "redis"  # shared by every web process
    _, key = tokens.issue(user=alice, name="tests")
    auth = {"Authorization": f"Token {key}"}
    server = start_gunicorn(db_url=worker_database_url())
    try:
        stream = SseClient(f"{server.base}/api/v1/events", auth).start()
        assert stream.status == 200
        publish(alice.pk, "test_note", {"n": 1})
        first = stream.wait_for(lambda e: e.type == "test_note", timeout=15)

        signalled, signalled_at = time.monotonic(), time.time()
        server.proc.send_signal(signal.SIGTERM)
        last = stream.wait_for(lambda e: e.type == "reconnect", timeout=10)
        assert stream.ended.wait(5), "the stream was not closed after its reconnect event"
        server.proc.wait(timeout=15)
        exited = time.monotonic() - signalled
    finally:
        elapsed = server.stop()
    print(f"reconnect event after {last.at - signalled_at:.2f} s, gunicorn exited after "
          f"{exited:.2f} s")
    assert last.at - signalled_at < 3
    assert last.id is None and last.data == {"type": "reconnect", "reason": "shutdown"}
    assert stream.events[-1] is last
    assert exited < 10 and elapsed < 1, f"gunicorn took {exited:.1f} s to stop"
    assert server.proc.returncode == 0
    entries = json_lines(server.log())
    assert any(e["logger"] == "gunicorn.error" and "Shutting down: Master" in e["message"]
               for e in entries)
    assert any("ending 1 open event stream" in e["message"] for e in entries)
    server.remove_log()

    # Meanwhile an event the client could not see; it reconnects to another web process.
    publish(alice.pk, "test_note", {"n": 2})
    again = SseClient(f"{gunicorn_server.base}/api/v1/events",
                      {**auth, "Last-Event-ID": first.id}).start()
    replayed = again.wait_for(lambda e: e.type == "test_note", timeout=15)
    again.close()
    assert replayed.data["n"] == 2
    assert not again.of_type("resync")

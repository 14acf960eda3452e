"""A real Celery worker as production runs it, with LOG_FORMAT=json: every line it writes is a
JSON object (its banner and shutdown notices included); a task queued by a request (sign-up
through the production web server) names that request's id on its lines and sends an email as
mail systems expect; SIGTERM lets the running task (a slow computer turn) finish while what is
still queued stays queued."""

import json
import os
import re
import signal
import time
import uuid

import httpx
import pytest
import redis

from config.celery_wire import queue_lists
from games import services
from games.dispatch import PLAY_AI_TURN
from games.models import Move
from tests.integration.conftest import GUNICORN_QUEUE, SITE
from tests.integration.servers import json_lines
from tests.integration.workers import (
    remove_log,
    start_smtp,
    start_worker,
    stop_worker,
    worker_database_url,
    worker_log,
)

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

GERMAN_SUBJECT = "Bestätige deine E-Mail-Adresse für Crazy10s Online"


def wait_until(condition, timeout: float, what: str, worker) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} not within {timeout} s\n{worker_log(worker)}")
        time.sleep(0.05)


def test_worker_logs_json_carries_the_request_id_and_stops_gracefully(
    gunicorn_server, alice, settings, monkeypatch, tmp_path
):
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = GUNICORN_QUEUE
    smtp, inbox = start_smtp()
    marker = tmp_path / "ai-turn-started"
    worker = start_worker(
        queue=GUNICORN_QUEUE, db_url=worker_database_url(),
        app="tests.integration.slow_ai_worker",
        extra_env={"LOG_FORMAT": "json", "EMAIL_HOST": "127.0.0.1",
                   "EMAIL_PORT": str(smtp.port), "SITE_BASE_URL": SITE,
                   "C10S_AI_TURN_DELAY_SECONDS": "2", "C10S_AI_TURN_MARKER": str(marker)},
    )
    inbox.worker = worker
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        request_id = f"ops-{uuid.uuid4().hex[:12]}"
        response = httpx.post(
            f"{gunicorn_server.base}/api/v1/auth/register",
            headers={"X-Request-ID": request_id, "Accept-Language": "de"},
            json={"username": "wilma", "email": "wilma@example.test",
                  "password": "a long enough passphrase 42"}, timeout=30)
        assert response.status_code == 201, response.text
        [mail] = inbox.wait_for("account-verify_email:")
        received = mail.message
        assert received["Subject"] == GERMAN_SUBJECT  # whole, no leading space
        assert re.fullmatch(r"<[^@\s]+@c10s\.example>", received["Message-ID"])
        assert received["Auto-Submitted"] == "auto-generated"
        assert re.fullmatch(r"account-verify_email:[0-9a-f]{16}",
                            received["X-Crazy10s-Notification"])  # no user id

        # A slow computer turn is running when SIGTERM comes: it finishes, the worker exits.
        monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
        game = services.create_game(user=alice, opponent={"ai": "beginner"})
        wait_until(marker.exists, 30, "the computer's turn to start", worker)
        signalled = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        queued_later = services.create_game(user=alice, opponent={"ai": "beginner"})
        assert worker.wait(timeout=30) == 0
        stopped_after = time.monotonic() - signalled
        assert [(m.number, m.seat) for m in Move.objects.filter(game=game)] == [(1, 1)]
        assert not Move.objects.filter(game=queued_later).exists()
        queued = [json.loads(m)["headers"]["task"]
                  for m in broker.lrange(GUNICORN_QUEUE, 0, -1)]
        assert PLAY_AI_TURN in queued  # still queued for the next worker
    finally:
        stop_worker(worker)
        smtp.stop()
        # The event messages are background work, on the queue's priority list.
        broker.delete(*queue_lists(GUNICORN_QUEUE))
    assert stopped_after < 10

    entries = json_lines(worker.log_path.read_text())
    remove_log(worker)
    messages = [e["message"] for e in entries]
    assert any(m.startswith("celery worker starting:") for m in messages)  # the banner
    assert any("Warm shutdown" in m for m in messages)
    task_lines = [e for e in entries if e.get("request_id") == request_id]
    assert task_lines, "no line names the request"
    assert {e.get("task") for e in task_lines} == {"accounts.send_email"}
    assert all(e.get("task_id") for e in task_lines)
    assert any("succeeded" in e["message"] for e in task_lines)

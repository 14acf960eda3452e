"""A real SMTP server (aiosmtpd) and real Celery worker processes for the integration tests
and bench/notify_latency.py."""

from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Received:
    at: float  # time.time() when the server accepted the DATA
    to: list[str]
    message: Message

    @property
    def key(self) -> str:
        return self.message["X-Crazy10s-Notification"] or ""

    def part(self, mimetype: str) -> str:
        for part in self.message.walk():
            if part.get_content_type() == mimetype:
                return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
        raise AssertionError(f"no {mimetype} part")


@dataclass
class Inbox:
    messages: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    worker: subprocess.Popen | None = None  # its log is shown when an email does not come

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler hook
        received = Received(
            at=time.time(),
            to=list(envelope.rcpt_tos),
            message=email.message_from_bytes(
                envelope.original_content, policy=email.policy.default
            ),
        )
        with self.lock:
            self.messages.append(received)
        return "250 Message accepted for delivery"

    def clear(self) -> None:
        """Forget what came so far (an inbox shared by a module's tests: each starts empty)."""
        with self.lock:
            self.messages.clear()

    def matching(self, prefix: str) -> list[Received]:
        with self.lock:
            return [m for m in self.messages if m.key.startswith(prefix)]

    def wait_for(self, prefix: str, count: int = 1, timeout: float = 30) -> list[Received]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = self.matching(prefix)
            if len(found) >= count:
                return found
            time.sleep(0.02)
        log = worker_log(self.worker) if self.worker is not None else ""
        raise AssertionError(
            f"{count} email(s) {prefix}* not received within {timeout} s\n{log}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_smtp() -> tuple[Controller, Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller, inbox


def worker_database_url() -> str:
    """The URL a worker subprocess needs to reach this test run's PostgreSQL database.

    Worker tests are marked postgres/redis/worker, so scripts/test.sh deselects them when the
    servers are missing; run directly on SQLite they would hang, so they fail loudly instead.
    """
    from django.db import connection

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        raise RuntimeError("needs DATABASE_URL (PostgreSQL) and REDIS_URL: run via make test")
    return database_url(connection.settings_dict)


def database_url(settings_dict: dict) -> str:
    db = settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def start_worker(
    *, queue: str, db_url: str, app: str = "config", extra_env: dict | None = None
) -> subprocess.Popen:
    """A solo-pool worker (the task runs in this very process, so SIGKILL stops it dead).

    Returns once the worker is ready: the Redis transport drops a message published to a
    queue nobody has bound yet, and every test uses a fresh queue. The worker's log is kept
    in ``proc.log_path`` (see ``worker_log``) for failure messages.
    """
    env = dict(os.environ)
    env.update(
        DATABASE_URL=db_url,
        GAMES_AI_QUEUE=queue,
        GAMES_ANALYSIS_QUEUE=queue,
        NOTIFY_QUEUE=queue,
        CELERY_TASK_ALWAYS_EAGER="false",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra_env or {})
    fd, log_path = tempfile.mkstemp(prefix="c10s-worker-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", app, "worker", "--pool=solo",
             "--concurrency=1", "-Q", queue, "--without-gossip", "--without-mingle",
             "--without-heartbeat", "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    proc.log_path = Path(log_path)
    ready_by = time.monotonic() + 60
    while " ready." not in proc.log_path.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > ready_by:
            stop_worker(proc)
            raise AssertionError(f"the worker did not start:\n{worker_log(proc)}")
        time.sleep(0.05)
    return proc


def worker_log(proc: subprocess.Popen, tail: int = 4000) -> str:
    return proc.log_path.read_text(errors="replace")[-tail:]


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def remove_log(proc: subprocess.Popen) -> None:
    proc.log_path.unlink(missing_ok=True)

"""A real SMTP server (aiosmtpd) and real Celery worker processes for the notification tests
and bench/notify_latency.py."""

from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
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
        raise AssertionError(f"{count} email(s) {prefix}* not received within {timeout} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_smtp() -> tuple[Controller, Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller, inbox


def database_url(settings_dict: dict) -> str:
    db = settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def start_worker(
    *, queue: str, db_url: str, app: str = "config", extra_env: dict | None = None
) -> subprocess.Popen:
    """A solo-pool worker (the task runs in this very process, so SIGKILL stops it dead)."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=db_url,
        GAMES_AI_QUEUE=queue,
        NOTIFY_QUEUE=queue,
        CELERY_TASK_ALWAYS_EAGER="false",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra_env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", app, "worker", "--pool=solo",
         "--concurrency=1", "-Q", queue, "--without-gossip", "--without-mingle",
         "--without-heartbeat",
         "--loglevel=" + ("INFO" if os.environ.get("NOTIFY_WORKER_LOG") else "WARNING")],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=_worker_log(),
    )


def _worker_log():
    """Worker output goes to $NOTIFY_WORKER_LOG when set (debugging), else nowhere."""
    path = os.environ.get("NOTIFY_WORKER_LOG")
    return open(path, "ab") if path else subprocess.DEVNULL  # noqa: SIM115


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

"""A real uvicorn server in a subprocess and a threaded SSE client (httpx), for the
integration tests and bench/events.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.integration.workers import ROOT, free_port


def start_server(*, db_url: str, extra_env: dict | None = None, workers: int = 1
                 ) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ)
    env.update(DATABASE_URL=db_url, PYTHONPATH=str(ROOT), SECURE_SSL_REDIRECT="false")
    env.update(extra_env or {})
    fd, log_path = tempfile.mkstemp(prefix="c10s-uvicorn-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--workers", str(workers), "--no-access-log",
             "--no-proxy-headers", "--timeout-graceful-shutdown", "2"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    proc.log_path = Path(log_path)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            break
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    stop_server(proc)
    raise AssertionError(f"uvicorn did not start:\n{proc.log_path.read_text()[-3000:]}")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.log_path.unlink(missing_ok=True)


@dataclass
class Received:
    id: str | None
    type: str
    data: dict
    at: float  # time.time() on arrival


@dataclass
class SseClient:
    """Reads one stream in a thread; ``events`` grows as they arrive."""

    url: str
    headers: dict[str, str]
    events: list[Received] = field(default_factory=list)
    status: int | None = None
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    _stop: bool = False

    def start(self) -> SseClient:
        threading.Thread(target=self._run, daemon=True).start()
        if not self.opened.wait(15):
            raise AssertionError(f"stream {self.url} did not open")
        return self

    def _run(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=self.headers,
                              timeout=httpx.Timeout(5, read=None)) as response:
                self.status = response.status_code
                fields: dict[str, str] = {}
                lines = response.iter_lines()
                if self.status != 200:
                    self.opened.set()
                for line in lines:
                    if self._stop:
                        return
                    if line == ": connected":
                        # The stream's cursor is fixed before this line (live/streams.py), not
                        # before the headers: an event published earlier may not be sent.
                        self.opened.set()
                    if not line:
                        if "event" in fields:
                            self.events.append(Received(
                                fields.get("id"), fields["event"], json.loads(fields["data"]),
                                time.time()))
                        self.opened.set()
                        fields = {}
                    elif not line.startswith(":") and ": " in line:
                        key, value = line.split(": ", 1)
                        fields[key] = value
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()

    def close(self) -> None:
        self._stop = True

    def of_type(self, kind: str) -> list[Received]:
        return [e for e in list(self.events) if e.type == kind]

    def wait_for(self, predicate, timeout: float = 30) -> Received:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for event in list(self.events):
                if predicate(event):
                    return event
            time.sleep(0.005)
        raise AssertionError(f"no matching event in {timeout} s: {self.events}")

"""The production web server as the README starts it (gunicorn -c config/gunicorn.py with
uvicorn workers) in a subprocess, a reverse proxy for the tests (it appends the peer address to
X-Forwarded-For, as nginx's ``$proxy_add_x_forwarded_for`` does), and helpers for JSON logs."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from tests.integration.workers import ROOT, free_port

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer",
              "transfer-encoding", "upgrade", "host", "content-length"}


@dataclass
class Server:
    proc: subprocess.Popen
    base: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 30) -> float:
        """SIGTERM, as `docker compose stop` sends; the seconds until the process exited."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return time.monotonic() - started

    def remove_log(self) -> None:
        self.log_path.unlink(missing_ok=True)


def start_gunicorn(*, db_url: str, extra_env: dict | None = None, access_log: bool = False
                   ) -> Server:
    port = free_port()
    env = dict(os.environ)
    env.update(DATABASE_URL=db_url, PYTHONPATH=str(ROOT), SECURE_SSL_REDIRECT="false",
               LOG_FORMAT="json")
    env.update(extra_env or {})
    command = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py",
               "config.asgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    if access_log:
        command += ["--access-logfile", "-"]
    fd, log_path = tempfile.mkstemp(prefix="c10s-gunicorn-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
    server = Server(proc, f"http://127.0.0.1:{port}", Path(log_path))
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        try:
            if httpx.get(f"{server.base}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.stop()
    raise AssertionError(f"gunicorn did not start:\n{server.log()[-3000:]}")


def json_lines(text: str) -> list[dict]:
    """Every non-empty line as a JSON object (AssertionError naming the first that is not)."""
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            raise AssertionError(f"line {number} is not JSON: {line[:300]!r}") from None
        assert isinstance(entry, dict), line
        entries.append(entry)
    return entries


def client_from(address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (any 127.x.y.z is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def wrong_logins(client: httpx.Client, base: str, count: int, forwarded=None) -> list[int]:
    """Status codes of ``count`` logins with a wrong password, each with the X-Forwarded-For
    ``forwarded(i)`` made up by the client (or none)."""
    codes = []
    for i in range(count):
        headers = {"X-Forwarded-For": forwarded(i)} if forwarded else {}
        response = client.post(f"{base}/api/v1/auth/token", headers=headers,
                               json={"username": f"nobody{i}", "password": "wrong-password"})
        codes.append(response.status_code)
    return codes


class _ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    backend: tuple[str, int]

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP
                   and k.lower() != "x-forwarded-for"}
        earlier = ", ".join(self.headers.get_all("X-Forwarded-For") or [])
        peer = self.client_address[0]
        headers["X-Forwarded-For"] = f"{earlier}, {peer}" if earlier else peer
        connection = http.client.HTTPConnection(*self.backend, timeout=30)
        try:
            connection.request(self.command, self.path, body=body or None, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _forward

    def log_message(self, format, *args) -> None:  # quiet
        pass


class ForwardingProxy:
    """A reverse proxy in front of ``backend`` (a base URL) on a free port of 127.0.0.1."""

    def __init__(self, backend: str) -> None:
        host, port = backend.removeprefix("http://").split(":")
        handler = type("Handler", (_ProxyHandler,), {"backend": (host, int(port))})
        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

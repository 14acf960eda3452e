"""The README's walkthrough (scripts/demo.sh) runs as written against the embedded service.

Starts `scripts/run_dev.sh` as `make run` does (SQLite, filesystem broker, file cache, all in
a temporary VAR_DIR; a free port), waits for /healthz, runs the walkthrough, checks that the
email links use the server's own port, and stops everything it started.
"""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.integration.workers import ROOT, free_port

pytestmark = pytest.mark.embedded

# The test run's own settings must not leak into the development server.
NOT_INHERITED = {
    "DATABASE_URL", "REDIS_URL", "TEST_REDIS_URL", "SERVICE_REDIS_URL", "SECRET_KEY", "DEBUG",
    "SECURE_SSL_REDIRECT", "SITE_BASE_URL", "VAR_DIR", "TEST_VAR_DIR", "EMAIL_HOST",
    "EMAIL_BACKEND", "NOTIFY_QUEUE", "GAMES_AI_QUEUE", "CELERY_TASK_ALWAYS_EAGER",
}


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError("scripts/run_dev.sh exited early")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} did not answer 200 within {timeout} s")


def group_members(pgid: int) -> list[str]:
    """Live (not zombie) processes of a process group, as "pid state command"."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")"
        comm_end = stat.rindex(")")
        state, _ppid, pgrp = stat[comm_end + 2:].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            members.append(f"{entry} {state} {stat[stat.index('(') + 1:comm_end]}")
    return members


def leftover_groups(groups: list[int], timeout: float = 10) -> dict[int, list[str]]:
    end = time.monotonic() + timeout
    while True:
        left = {g: m for g in groups if (m := group_members(g))}
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.2)


@pytest.fixture
def embedded_service(tmp_path):
    port = free_port()
    log_path = tmp_path / "run_dev.log"
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    # Emails even though the walkthrough looks at its game all the time, and at once.
    env.update(PORT=str(port), VAR_DIR=str(tmp_path / "var"), NOTIFY_SEEN_SECONDS="0",
               NOTIFY_GATHER_MINUTES="0")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            ["scripts/run_dev.sh"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    groups: list[int] = []
    try:
        wait_healthy(f"http://127.0.0.1:{port}/healthz", proc, timeout=90)
        text = log_path.read_text(errors="replace")
        started = re.findall(r"(?:Celery worker|Server) started \(pid (\d+)\)", text)
        groups = [int(pid) for pid in started]
        assert len(groups) == 2, text
        yield port, log_path
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        leftovers = leftover_groups(groups)
        for group in leftovers:  # only the process groups this fixture started
            os.killpg(group, signal.SIGKILL)
        assert not leftovers, f"run_dev.sh left processes running: {leftovers}"


def test_the_walkthrough_runs_against_make_run(embedded_service):
    port, log_path = embedded_service
    # The container healthcheck's probe, against this server.
    probe = subprocess.run(
        [sys.executable, "scripts/healthcheck.py"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "HEALTHCHECK_PORT": str(port), "ALLOWED_HOSTS": ".localhost,x"},
        timeout=30,
    )
    assert probe.returncode == 0, probe.stderr
    assert '"status": "ok"' in probe.stdout
    started = time.monotonic()
    demo = subprocess.run(
        ["scripts/demo.sh", f"http://127.0.0.1:{port}"], cwd=ROOT, capture_output=True,
        text=True, timeout=180,
    )
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    game = re.search(r"Walkthrough completed: game (\d+)", demo.stdout).group(1)
    assert re.search(r'If-None-Match: "[0-9a-f]+" -> 304', demo.stdout)
    assert "after logout: 401" in demo.stdout
    assert time.monotonic() - started < 60

    # The docs page and the files it loads (Swagger UI from the sidecar), and the admin's CSS.
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{base}/api/v1/docs/", timeout=10) as response:
        html = response.read().decode()
    assets = re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)
    assert any("swagger-ui-bundle" in a for a in assets), html
    for path in [*assets, "/static/admin/css/base.css"]:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            assert response.status == 200, path

    # The computer's reply sent a turn email (printed by the worker): its link has our port.
    link = f"Open the game: http://127.0.0.1:{port}/games/{game}"
    end = time.monotonic() + 30
    while link not in log_path.read_text(errors="replace"):
        assert time.monotonic() < end, log_path.read_text(errors="replace")[-4000:]
        time.sleep(0.3)

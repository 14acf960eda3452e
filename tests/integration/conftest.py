"""Shared servers of the integration tests: the embedded service (`make run`) and the
production web server (gunicorn + uvicorn workers), each started once per session."""

import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest

from tests.integration.servers import start_gunicorn
from tests.integration.workers import ROOT, free_port, worker_database_url

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


@pytest.fixture(scope="session")
def embedded_service(tmp_path_factory):
    """`scripts/run_dev.sh` as `make run` starts it (SQLite, filesystem broker, file cache, all
    in a temporary VAR_DIR; a free port): (port, its log). Stopped with SIGTERM at the end, and
    nothing it started may be left running."""
    tmp_path = tmp_path_factory.mktemp("embedded")
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



# The queue the shared gunicorn's tasks go to (a test starts a worker on it when it needs one).
GUNICORN_QUEUE = f"c10s-web-{uuid.uuid4().hex[:8]}"
SITE = "https://c10s.example"


@pytest.fixture(scope="session")
def gunicorn_server(django_db_setup, django_db_blocker):
    """The README's production command on this run's database and Redis: JSON logs, gunicorn's
    access log on, NUM_PROXIES=0, tasks to GUNICORN_QUEUE."""
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    server = start_gunicorn(db_url=db_url, access_log=True, extra_env={
        "NOTIFY_QUEUE": GUNICORN_QUEUE, "GAMES_AI_QUEUE": GUNICORN_QUEUE,
        "GAMES_ANALYSIS_QUEUE": GUNICORN_QUEUE, "SITE_BASE_URL": SITE,
    })
    yield server
    server.stop()
    server.remove_log()

"""Two real `celery beat` processes on one Redis: one sends the periodic tasks, the other stands
by (sending nothing) and takes over when the first stops; both log JSON only. And a process
started without compiled message catalogs says so (web entry points, beat)."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

from tests.integration.servers import json_lines
from tests.integration.workers import ROOT

SENDING = "Scheduler: Sending due task"


def start_beat(tmp_path: Path, name: str, extra_env: dict) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LOG_FORMAT": "json", **extra_env}
    log = open(tmp_path / f"{name}.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
         "--schedule", str(tmp_path / f"{name}-schedule")],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    log.close()
    proc.log_path = tmp_path / f"{name}.log"
    return proc


def messages(proc) -> list[str]:
    return [e["message"] for e in json_lines(proc.log_path.read_text(errors="replace"))]


def wait_until(condition, timeout: float, what: str, *procs) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            logs = "\n".join(p.log_path.read_text(errors="replace")[-2000:] for p in procs)
            raise AssertionError(f"{what} not within {timeout} s\n{logs}")
        time.sleep(0.1)


def stop(proc) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.redis
def test_a_second_beat_stands_by_and_takes_over(tmp_path):
    queue = f"c10s-beat-{uuid.uuid4().hex[:8]}"  # where the sweeps go, deleted afterwards
    env = {"NOTIFY_SWEEP_SECONDS": "1", "CELERY_BEAT_LOCK_SECONDS": "3", "NOTIFY_QUEUE": queue,
           "GAMES_AI_QUEUE": queue, "GAMES_ANALYSIS_QUEUE": queue}
    first = start_beat(tmp_path, "first", env)
    second = None
    try:
        wait_until(lambda: any("holding the scheduler lock" in m for m in messages(first)), 30,
                   "the first beat's lock", first)
        second = start_beat(tmp_path, "second", env)
        wait_until(lambda: any("standing by" in m for m in messages(second)), 30,
                   "the second beat standing by", first, second)
        sent_before = sum(SENDING in m for m in messages(first))
        wait_until(lambda: sum(SENDING in m for m in messages(first)) >= sent_before + 4, 15,
                   "the first beat sending", first, second)
        assert not any(SENDING in m for m in messages(second))  # nothing sent twice

        stopped = time.monotonic()
        stop(first)
        assert first.returncode == 0
        wait_until(lambda: any(SENDING in m for m in messages(second)), 10,
                   "the second beat taking over", second)
        took_over = time.monotonic() - stopped
    finally:
        for proc in (first, second):
            if proc is not None:
                stop(proc)
        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue, f"_kombu.binding.{queue}")
    assert took_over < 5
    assert any("released the scheduler lock" in m for m in messages(first))
    for proc in (first, second):
        assert any(m.startswith("celery beat starting:") for m in messages(proc))


SETTINGS_WITHOUT_CATALOGS = """
from config.settings import *  # noqa: F403
LOCALE_PATHS = [{path!r}]
"""


def test_a_process_without_compiled_catalogs_says_so(tmp_path):
    """As a fresh clone would run without `make messages` / compilemessages."""
    (tmp_path / "no_catalogs_settings.py").write_text(
        SETTINGS_WITHOUT_CATALOGS.format(path=str(tmp_path / "empty-locale")))
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}:{ROOT}", "LOG_FORMAT": "json",
           "DJANGO_SETTINGS_MODULE": "no_catalogs_settings"}
    for entry in ("config.asgi", "config.wsgi"):
        result = subprocess.run([sys.executable, "-c", f"import {entry}"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        [error] = [e for e in json_lines(result.stderr) if e["logger"] == "crazy10s.catalogs"]
        assert error["level"] == "ERROR"
        assert error["message"].startswith(
            "Message catalogs are not compiled for de, fr, pt_BR: those players get English")
        assert "compilemessages" in error["message"]
    # And the real catalogs of this checkout are there (make test compiled them): no such line.
    result = subprocess.run([sys.executable, "-c", "import config.wsgi"], cwd=ROOT,
                            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
                            capture_output=True, text=True, timeout=60)
    assert "crazy10s.catalogs" not in result.stderr


@pytest.mark.redis
def test_beat_without_compiled_catalogs_says_so(tmp_path):
    (tmp_path / "no_catalogs_settings.py").write_text(
        SETTINGS_WITHOUT_CATALOGS.format(path=str(tmp_path / "empty-locale")))
    beat = start_beat(tmp_path, "beat", {
        "PYTHONPATH": f"{tmp_path}:{ROOT}", "DJANGO_SETTINGS_MODULE": "no_catalogs_settings",
        "CELERY_BEAT_LOCK_SECONDS": "3"})
    try:
        wait_until(lambda: any("catalogs are not compiled" in m for m in messages(beat)), 30,
                   "the catalogs error", beat)
    finally:
        stop(beat)

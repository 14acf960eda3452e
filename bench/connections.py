"""Persistent database connections under the production command (README, "Production":
gunicorn -c config/gunicorn.py config.asgi:application, uvicorn workers, DEBUG off):
``GET /api/v1/me`` and ``GET /api/v1/games/{id}`` sequentially (p50/p95 ms) and from 8
concurrent clients (requests/s), for each of

- ``DB_CONN_MAX_AGE=0`` (a new PostgreSQL connection per request),
- ``DB_CONN_MAX_AGE=60`` with ``DB_CONN_HEALTH_CHECKS=true``,
- ``DB_CONN_MAX_AGE=60`` without health checks,

in one run, with the load average beside the figures.

    .venv/bin/python bench/connections.py [--requests 400] [--seconds 8] [--workers 2]

It (re)creates the database ``c10s_conn_bench`` (``BENCH_DATABASE_URL``); no Redis (the file
cache and broker: the database is what is measured).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_conn_bench"
CONFIGS = [("0", "false"), ("60", "true"), ("60", "false")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recreate_database(url: str) -> None:
    parts = urlparse(url)
    admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{parts.path.lstrip("/")}"')


def server_env(db_url: str, var_dir: str, max_age: str, health: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_REDIS_URL"}}
    env.update(
        DATABASE_URL=db_url, DB_CONN_MAX_AGE=max_age, DB_CONN_HEALTH_CHECKS=health,
        DEBUG="false", SECRET_KEY=SECRET_KEY, PUZZLE_SECRET=PUZZLE_SECRET,
        SECURE_SSL_REDIRECT="false", VAR_DIR=var_dir, LOG_LEVEL="WARNING",
        THROTTLE_REGISTER="1000000/min", THROTTLE_GAME_WRITES="1000000/min",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", PYTHONPATH=str(ROOT),
    )
    return env


SECRET_KEY = secrets.token_urlsafe(50)
PUZZLE_SECRET = secrets.token_urlsafe(50)


def start(env: dict, workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            httpx.get(f"{base}/games/computer-levels", timeout=2)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def connections(db_name: str) -> int:
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                           [db_name]).fetchone()
        return int(row[0]) if row else 0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(base: str, token: str, game: int, requests: int, seconds: float) -> dict:
    headers = {"Authorization": f"Token {token}"}
    figures: dict = {}
    with httpx.Client(headers=headers, timeout=30) as client:
        for _ in range(30):  # warm up: every worker and pool thread has served
            client.get(f"{base}/me")
        for name, path in (("me", "/me"), ("game", f"/games/{game}")):
            times = []
            for _ in range(requests):
                started = time.perf_counter()
                response = client.get(base + path)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, response.text
            figures[name] = (statistics.median(times), percentile(times, 0.95))
    done = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client_loop() -> None:
        with httpx.Client(headers=headers, timeout=30) as client:
            while time.monotonic() < stop:
                client.get(f"{base}/me")
                with lock:
                    done[0] += 1

    threads = [threading.Thread(target=client_loop) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures["me_per_second_8_clients"] = done[0] / seconds
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    db_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    db_name = urlparse(db_url).path.lstrip("/")
    recreate_database(db_url)
    var_dir = tempfile.mkdtemp(prefix="c10s-conn-bench-")
    env = server_env(db_url, var_dir, "0", "false")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    print(f"GET me / GET game under gunicorn -c config/gunicorn.py, {args.workers} uvicorn "
          f"workers; {args.requests} sequential requests each, then 8 clients for "
          f"{args.seconds:.0f} s")
    token = game = None
    for max_age, health in CONFIGS:
        proc, base = start(server_env(db_url, var_dir, max_age, health), args.workers)
        try:
            if token is None:
                tokens = []
                for _ in range(2):
                    name = f"c{uuid.uuid4().hex[:10]}"
                    response = httpx.post(f"{base}/auth/register", json={
                        "username": name, "email": f"{name}@example.test",
                        "password": "s3cret-Pass!x", "language": "en"}, timeout=30)
                    tokens.append((response.json()["token"], name))
                token = tokens[0][0]
                created = httpx.post(f"{base}/games", headers={
                    "Authorization": f"Token {token}"}, json={
                    "opponent": {"username": tokens[1][1]}}, timeout=30)
                game = created.json()["id"]
            figures = measure(base, token, game, args.requests, args.seconds)
            held = connections(db_name)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        (me50, me95), (g50, g95) = figures["me"], figures["game"]
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f" DB_CONN_MAX_AGE={max_age:>2} DB_CONN_HEALTH_CHECKS={health:<5}: "
              f"GET me p50 {me50:.1f} ms p95 {me95:.1f}; GET game p50 {g50:.1f} ms "
              f"p95 {g95:.1f}; 8 clients {figures['me_per_second_8_clients']:.0f} GET me/s; "
              f"connections held after {held}; load {load}", flush=True)


if __name__ == "__main__":
    main()

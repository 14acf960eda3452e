"""Time from a committed move to the "your turn" email accepted by the SMTP server.

Real pieces: PostgreSQL, Redis, one Celery worker process (solo pool), an aiosmtpd server in
this process (its DATA handler stamps the arrival). For each of N moves (a fresh game each, so
that the gather window never holds an email) the commit is stamped by an on-commit callback
registered before the move's own callbacks, and the matching email is waited for.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_notify_bench \
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/notify_latency.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_notify_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off by default: both secrets are required
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ["NOTIFY_GATHER_MINUTES"] = "0"  # every turn email goes at once (worker inherits)
os.environ.setdefault("LOG_LEVEL", "WARNING")

OPENING = "g7=5 h7=5"  # legal first move of seat 0 with SEED
SEED = 20240602


def ensure_database(url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    admin = urlparse(url)._replace(path="/postgres", scheme="postgresql").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(n: int) -> None:
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from games import services
    from games.services import creation
    from tests.integration.workers import remove_log, start_smtp, start_worker, stop_worker

    call_command("migrate", verbosity=0)
    controller, inbox = start_smtp()
    queue = f"c10s-bench-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    worker = start_worker(
        queue=queue,
        db_url=os.environ["DATABASE_URL"],
        extra_env={
            "EMAIL_HOST": controller.hostname,
            "EMAIL_PORT": str(controller.port),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        },
    )
    creation._new_seed = lambda: SEED  # the seed is private to games.services.creation
    users = get_user_model().objects
    tag = uuid.uuid4().hex[:6]
    # Verified addresses: game emails go to no other (games.notifications may_receive).
    alice = users.create_user(f"bench-a-{tag}", f"a-{tag}@example.test", "x-bench-Pass1",
                              email_verified=True)
    bob = users.create_user(f"bench-b-{tag}", f"b-{tag}@example.test", "x-bench-Pass1",
                            email_verified=True)
    latencies: list[float] = []
    try:
        for i in range(n + 1):  # the first round warms the worker up and is not counted
            game = services.create_game(user=alice, opponent={"username": bob.username})
            inbox.wait_for(f"started:{game.pk}:", timeout=60)
            committed: list[float] = []
            with transaction.atomic():
                transaction.on_commit(lambda stamps=committed: stamps.append(time.time()))
                services.submit_move(
                    game_id=game.pk, user=alice, move=OPENING, expected_move_number=0
                )
            [email] = inbox.wait_for(f"turn:{game.pk}:1:", timeout=30)
            if i:
                latencies.append((email.at - committed[0]) * 1000)
    finally:
        stop_worker(worker)
        remove_log(worker)
        controller.stop()
    print(f"notify latency over {len(latencies)} moves (commit -> SMTP accepted, ms):")
    print(f"  median {statistics.median(latencies):.1f}  p95 {percentile(latencies, 0.95):.1f}"
          f"  mean {statistics.fmean(latencies):.1f}  min {min(latencies):.1f}"
          f"  max {max(latencies):.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

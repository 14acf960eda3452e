"""``POST auth/password/reset``: is the answer as fast for an unknown address as for a known one?

In process (Django's test client through the whole middleware stack), PostgreSQL and Redis (the
broker: each request queues the lookup task to a queue no worker reads, deleted at the end).
Requests alternate known / unknown addresses, each pair in turn led by one or the other (each a
different address, so the per-address throttle never answers instead); prints the median and
p90 of each and their ratio.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_reset_bench \
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/password_reset.py [N]
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
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_reset_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ["THROTTLE_PASSWORD_RESET"] = "1000000/hour"


def ensure_database(url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    admin = urlparse(url)._replace(path="/postgres", scheme="postgresql").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def main(n: int) -> None:
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    queue = f"c10s-reset-bench-{uuid.uuid4().hex[:8]}"
    settings.NOTIFY_QUEUE = queue
    tag = uuid.uuid4().hex[:6]
    known = []
    for i in range(n):
        user = get_user_model().objects.create_user(
            f"reset-{tag}-{i}", f"reset-{tag}-{i}@example.test", "x-bench-Pass1"
        )
        known.append(user.email)
    unknown = [f"ghost-{tag}-{i}@example.test" for i in range(n)]
    client = Client()
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    try:
        for i in range(n):
            pair = [("known", known[i]), ("unknown", unknown[i])]
            for label, email in pair if i % 2 else pair[::-1]:  # neither always goes first
                start = time.perf_counter()
                response = client.post("/api/v1/auth/password/reset", {"email": email},
                                       content_type="application/json")
                times[label].append((time.perf_counter() - start) * 1000)
                assert response.status_code == 202, response.content
    finally:
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue)
        get_user_model().objects.filter(username__startswith=f"reset-{tag}-").delete()
    medians = {k: statistics.median(v) for k, v in times.items()}
    for label, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{label:8} {n} requests: median {medians[label]:.2f} ms, p90 {p90:.2f} ms")
    print(f"ratio unknown/known (medians): {medians['unknown'] / medians['known']:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

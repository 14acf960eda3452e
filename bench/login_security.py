"""Login throttle and timing probes: ``python bench/login_security.py [--rounds 15]``.

Runs in process against the configured database and cache (export DATABASE_URL and REDIS_URL
first, and run ``manage.py migrate``): it creates the accounts ``bench-known`` and
``bench-suspended`` if missing and clears the cache (throttle counters) between probes, so point
it at a database and Redis db of your own. Uses the real password hasher (PBKDF2).

Prints: how many of 30 wrong passwords with 30 made-up X-Forwarded-For values were answered
(not 429), how many password checks 40 parallel logins from one address ran, and the median
login time for an existing, an unknown and a suspended account.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# With DEBUG off (the default) the settings want a secret and redirect plain HTTP to HTTPS: the
# probe speaks plain HTTP through the test client.
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import PBKDF2PasswordHasher  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

TOKEN = "/api/v1/auth/token"
PASSWORD = "bench-Pass-1234"  # noqa: S105


def _user(username: str, *, active: bool) -> None:
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username, email=f"{username}@example.test")
    user.set_password(PASSWORD)
    user.is_active = active
    user.save()


def forged_xff() -> int:
    cache.clear()
    client = APIClient()
    answered = 0
    for i in range(30):
        response = client.post(
            TOKEN, {"username": "bench-known", "password": "wrong"}, format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i + 1}",
        )
        answered += response.status_code != 429
    return answered


def parallel_checks(n: int = 40) -> int:
    cache.clear()
    checks = 0
    lock = threading.Lock()
    original = PBKDF2PasswordHasher.encode

    def counting(self, *args, **kwargs):
        nonlocal checks
        with lock:
            checks += 1
        return original(self, *args, **kwargs)

    PBKDF2PasswordHasher.encode = counting
    barrier = threading.Barrier(n)

    def attempt() -> None:
        try:
            barrier.wait(timeout=30)
            APIClient().post(
                TOKEN, {"username": "bench-known", "password": "wrong"}, format="json"
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(n)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        PBKDF2PasswordHasher.encode = original
    return checks


def timing(rounds: int) -> dict[str, float]:
    client = APIClient()
    cases = {
        "known (wrong password)": ("bench-known", "wrong"),
        "unknown": ("bench-nobody-here", "wrong"),
        "suspended (right password)": ("bench-suspended", PASSWORD),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (username, password) in cases.items():
            cache.clear()  # never throttled while measuring
            started = time.perf_counter()
            client.post(TOKEN, {"username": username, "password": password}, format="json")
            times[name].append((time.perf_counter() - started) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    _user("bench-known", active=True)
    _user("bench-suspended", active=False)
    print(f"forged X-Forwarded-For: {forged_xff()} of 30 wrong passwords answered (not 429)")
    print(f"40 parallel logins from one address: {parallel_checks()} password checks")
    for name, median in timing(args.rounds).items():
        print(f"login {name}: median {median:.1f} ms")
    cache.clear()


if __name__ == "__main__":
    main()

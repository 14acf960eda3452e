"""Time from a committed move to the "your turn" push accepted by the push service.

Real pieces: PostgreSQL, Redis, one Celery worker process (solo pool) and the push-service
double of the tests on loopback (tests/notifications/push_double.py: it checks the VAPID JWT
and decrypts the aes128gcm body before it answers 201, as a push service would; the arrival is
stamped when the body is decrypted). The player to move has two devices subscribed; each of N
moves is a fresh game, and the time of the later of its two pushes is counted (both devices
notified). The commit is stamped by an on-commit callback registered before the move's own.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_push_bench \
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/push.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_push_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ["PUSH_ALLOW_PRIVATE_ENDPOINTS"] = "true"  # the double listens on loopback
os.environ.setdefault("LOG_LEVEL", "WARNING")

OPENING = "g7=5 h7=5"  # legal first move of seat 0 with SEED
SEED = 20240602
DEVICES = 2


def main(n: int) -> None:
    from notify_latency import ensure_database, percentile

    from games.notifications.push.keys import new_private_key

    os.environ.setdefault("VAPID_PRIVATE_KEY", new_private_key())  # the worker inherits it
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from games import services
    from games.notifications.push.keys import application_key
    from games.notifications.services import push
    from games.services import creation
    from tests.integration.workers import remove_log, start_worker, stop_worker
    from tests.notifications.push_double import PushServiceDouble

    call_command("migrate", verbosity=0)
    key = application_key()
    assert key is not None
    double = PushServiceDouble(key.public_key)
    queue = f"c10s-bench-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    # INFO: start_worker waits for the worker's "ready." line.
    worker = start_worker(queue=queue, db_url=os.environ["DATABASE_URL"],
                          extra_env={"LOG_LEVEL": "INFO"})
    creation._new_seed = lambda: SEED  # the seed is private to games.services.creation
    users = get_user_model().objects
    tag = uuid.uuid4().hex[:6]
    alice = users.create_user(f"bench-a-{tag}", f"a-{tag}@example.test", "x-bench-Pass1")
    bob = users.create_user(f"bench-b-{tag}", f"b-{tag}@example.test", "x-bench-Pass1")
    for _ in range(DEVICES):
        browser = double.subscribe()
        push.subscribe(user=bob, endpoint=browser.endpoint, p256dh=browser.p256dh,
                       auth=browser.auth)
    latencies: list[float] = []
    seen = 0
    try:
        for i in range(n + 1):  # the first round warms the worker up and is not counted
            game = services.create_game(user=alice, opponent={"username": bob.username})
            committed: list[float] = []
            with transaction.atomic():
                transaction.on_commit(lambda stamps=committed: stamps.append(time.time()))
                services.submit_move(
                    game_id=game.pk, user=alice, move=OPENING, expected_move_number=0
                )
            received = double.wait_for(seen + DEVICES, timeout=30)[seen:]
            assert len(received) == DEVICES, "a push did not arrive within 30 s"
            assert all(r.payload.get("game") == game.pk for r in received)
            seen += DEVICES
            if i:
                latencies.append((max(r.wall for r in received) - committed[0]) * 1000)
    finally:
        stop_worker(worker)
        remove_log(worker)
        double.close()
    assert not double.rejected, double.rejected
    load = os.getloadavg()
    print(f"push latency over {len(latencies)} moves, {DEVICES} devices each "
          "(commit -> both pushes accepted by the push service, ms):")
    print(f"  median {statistics.median(latencies):.1f}  p95 {percentile(latencies, 0.95):.1f}"
          f"  mean {statistics.fmean(latencies):.1f}  min {min(latencies):.1f}"
          f"  max {max(latencies):.1f}")
    print(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

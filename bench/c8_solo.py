"""Crazy Eights solo: time from a person's move to the first computer reply visible in the view.

Real pieces: PostgreSQL, Redis, one Celery worker process (solo pool) playing the computers'
turns; the API is called in this process through DRF's test client (the same views, no HTTP
server). A four-seat solo match (three regulars); the person plays the hint's move, then polls
``GET games/{id}`` every 10 ms until the move number passes her move's (the first computer
reply) and then until it is her turn again (all three replies, paced by GAMES_AI_PAUSE_MS
between consecutive computer turns). A finished match starts a new one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_solo_bench \
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/c8_solo.py [N] [--pause-ms MS]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_solo_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off by default: both secrets are required
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ.setdefault("LOG_LEVEL", "WARNING")

from bench.notify_latency import ensure_database, percentile  # noqa: E402

OPPONENTS = ["cautious", "strong", "aggressive"]


def summary(name: str, values: list[float]) -> str:
    return (f"  {name:22s} p50 {statistics.median(values):7.1f}  p95 "
            f"{percentile(values, 0.95):7.1f}  max {max(values):7.1f}")


def main(n: int, pause_ms: int) -> None:
    os.environ["GAMES_AI_PAUSE_MS"] = str(pause_ms)  # read by the settings and the worker
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from tests.integration.workers import remove_log, start_worker, stop_worker

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
    queue = f"c10s-bench-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    worker = start_worker(queue=queue, db_url=os.environ["DATABASE_URL"])
    tag = uuid.uuid4().hex[:6]
    person = get_user_model().objects.create_user(
        f"bench-s-{tag}", f"s-{tag}@example.test", "x-bench-Pass1"
    )
    client = APIClient()
    client.force_authenticate(person)

    def view(game_id: int) -> dict:
        r = client.get(f"/api/v1/games/{game_id}")
        assert r.status_code == 200, r.content
        return r.json()

    first: list[float] = []
    round_trip: list[float] = []
    matches = 0
    try:
        game_id = None
        while len(first) < n + 1:  # the first move warms the worker up and is not counted
            if game_id is None:
                r = client.post("/api/v1/games", {"kind": "crazy_eights",
                                                  "opponents": OPPONENTS}, format="json")
                assert r.status_code == 201, r.content
                game_id, matches = r.json()["id"], matches + 1
            v = view(game_id)
            if v["status"] != "active":
                game_id = None
                continue
            if v["to_move"] != v["your_seat"]:
                time.sleep(0.01)
                continue
            hint = client.get(f"/api/v1/games/{game_id}/hint").json()["move"]
            r = client.post(f"/api/v1/games/{game_id}/moves",
                            {"move": hint, "expected_move_number": v["move_number"]},
                            format="json")
            moved = time.perf_counter()  # the response: the move is committed
            assert r.status_code in (200, 201), r.content
            mine = v["move_number"] + 1  # the move number after mine
            v = view(game_id)
            if v["to_move"] == v["your_seat"]:
                continue  # a draw leaves the turn with the person: no reply to time
            while v["move_number"] <= mine and v["status"] == "active":
                time.sleep(0.01)
                v = view(game_id)
            replied = time.perf_counter()
            while v["status"] == "active" and v["to_move"] != v["your_seat"]:
                time.sleep(0.01)
                v = view(game_id)
            again = time.perf_counter()
            if v["move_number"] > mine:  # a reply came (not the person's own last move)
                first.append((replied - moved) * 1000)
                round_trip.append((again - moved) * 1000)
    finally:
        stop_worker(worker)
        remove_log(worker)
    first, round_trip = first[1:], round_trip[1:]
    print(f"Crazy Eights solo, GAMES_AI_PAUSE_MS={pause_ms}, {len(first)} moves, "
          f"{matches} matches vs {', '.join(OPPONENTS)} (ms after the move's response):")
    print(summary("first reply visible", first))
    print(summary("your turn again", round_trip))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=50)
    parser.add_argument("--pause-ms", type=int, default=1000)
    args = parser.parse_args()
    main(args.n, args.pause_ms)

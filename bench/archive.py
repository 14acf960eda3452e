"""Server time of the archive with thousands of finished games:
``python bench/archive.py [--games 5000] [--requests 100]``.

Writes ``--games`` finished games of one player against four opponents in its own database
``c10s_archive_bench`` (``BENCH_DATABASE_URL``), then requests through Django's whole stack in
this process: the archive page and ``GET me/archive`` (first page, a late page, filtered by
opponent, result and month), the text export of one game and the history as JSON Lines of a
player with 200 games. Prints the median and p95 per request, the queries per request, and the
load average beside them (issue 29: "the page stays fast, with no query per game").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_pages import set_up_django  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_archive_bench"


def _finished_games(user, opponents, count: int) -> None:
    from django.utils import timezone

    from games.models import Game, Seat

    now = timezone.now()
    for start in range(0, count, 1000):
        games = Game.objects.bulk_create([
            Game(kind="crazy10s", status=Game.Status.FINISHED, seed=i, state={},
                 started_at=now, finished_at=now - timedelta(hours=i),
                 result={"termination": "resignation", "winner": i % 2, "winners": [i % 2],
                         "scores": [10, 0], "adjustments": [0, 0]})
            for i in range(start, min(count, start + 1000))
        ])
        Seat.objects.bulk_create([
            Seat(game=g, index=0, user=user, result="win" if g.seed % 2 == 0 else "loss",
                 finished_at=g.finished_at)
            for g in games
        ] + [
            Seat(game=g, index=1, user=opponents[g.seed % len(opponents)],
                 result="loss" if g.seed % 2 == 0 else "win", finished_at=g.finished_at)
            for g in games
        ])


def _time(client, url: str, requests: int) -> None:
    from django.db import connection

    client.get(url)
    times = []
    executed: list[str] = []

    def count(execute, sql, params, many, context):  # (request_started resets queries_log)
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"{url[:58]:58} median {statistics.median(times):7.1f} ms  p95 {p95:7.1f} ms  "
          f"{len(executed):2d} queries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    plain_static_files = set_up_django(DEFAULT_DB, "c10s-archive-bench-")
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from games import services

    users = get_user_model()
    me = users.objects.create_user("archivist", "a@example.test", "x", email_verified=True)
    rivals = [users.objects.create_user(f"rival{i}", f"r{i}@example.test", "x")
              for i in range(4)]
    _finished_games(me, rivals, args.games)
    played = services.create_game(user=me, opponent={"username": "rival0"})
    mover = me if played.current_seat == 0 else rivals[0]
    services.submit_move(game_id=played.pk, user=mover, move="pass", expected_move_number=0)
    services.resign(game_id=played.pk, user=me)
    few = users.objects.create_user("historian", "h@example.test", "x")
    _finished_games(few, rivals, 200)
    month = timezone.now().strftime("%Y-%m")
    print(f"{args.games} finished games; load average {os.getloadavg()}")
    with plain_static_files:
        client = Client()
        client.force_login(me)
        for url in ("/archive", "/archive?page=200", f"/archive?opponent=rival2&result=win"
                    f"&month={month}", "/api/v1/me/archive", "/api/v1/me/archive?page=200",
                    f"/api/v1/games/{played.pk}/export.txt"):
            _time(client, url, args.requests)
        client.force_login(few)
        _time(client, "/api/v1/me/archive/export", max(5, args.requests // 10))
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

"""Benchmark of the live event streams (GET /api/v1/events) on a real uvicorn server.

    .venv/bin/python bench/events.py [--backend redis|db] [--moves 200] [--idle 1000]
                                     [--cycles 10]

1. Latency: a move committed in this process (services.submit_move, as a worker or another web
   process would) until the event arrives on the opponent's open stream: p50/p95/max.
2. Memory: the server's RSS before and after opening ``--idle`` idle streams (httpx async), and
   after closing them; with ``--cycles N`` then N more rounds of opening and closing them, the
   RSS after each (a leak climbs round after round).

It (re)creates the database ``c10s_sse_bench`` (``BENCH_DATABASE_URL``); ``--backend redis``
uses ``BENCH_REDIS_URL`` (default redis://127.0.0.1:6379/6: a database of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import _recreate_database, _server_env  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_sse_bench"


def _status(pid: int, field: str) -> int | None:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return None


def rss_mb(pid: int) -> float:
    kb = _status(pid, "VmRSS")
    return kb / 1024 if kb is not None else float("nan")


def threads(pid: int) -> int:
    return _status(pid, "Threads") or 0


def latency(base: str, moves: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from accounts import tokens
    from games import services
    from games.models import Game
    from tests.live.server import SseClient

    users = get_user_model()
    alice = users.objects.create_user("bench_a", "a@example.test", "x-Pass-123!")
    bob = users.objects.create_user("bench_b", "b@example.test", "x-Pass-123!")
    token = tokens.issue(user=bob, name="bench")[1]
    stream = SseClient(f"{base}/api/v1/events", {"Authorization": f"Token {token}"}).start()
    samples: list[float] = []
    game = None
    while len(samples) < moves:
        if game is None or game.status != Game.Status.ACTIVE:
            game = services.create_game(user=alice, opponent={"username": "bench_b"})
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            continue
        mover = alice if game.seats.get(index=game.current_seat).user_id == alice.pk else None
        if mover is None:
            services.submit_move(game_id=game.pk, user=bob, move="pass",
                                 expected_move_number=game.move_number)
            continue
        number = game.move_number + 1
        start = time.time()
        services.submit_move(game_id=game.pk, user=alice, move="pass",
                             expected_move_number=game.move_number)
        event = stream.wait_for(lambda e, g=game.pk, n=number: e.type == "move"
                                and e.data["game"] == g and e.data["move_number"] == n)
        samples.append(event.at - start)
        game.refresh_from_db()
    stream.close()
    return samples


async def idle_streams(base: str, count: int, token: str) -> list[httpx.Response]:
    client = httpx.AsyncClient(timeout=httpx.Timeout(30, read=None),
                               limits=httpx.Limits(max_connections=count + 10))
    responses = []

    async def open_one():
        request = client.build_request("GET", f"{base}/api/v1/events",
                                       headers={"Authorization": f"Token {token}"})
        response = await client.send(request, stream=True)
        responses.append(response)

    for i in range(0, count, 100):
        await asyncio.gather(*(open_one() for _ in range(min(100, count - i))))
    return responses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["redis", "db"], default="redis")
    parser.add_argument("--moves", type=int, default=200,
                        help="moves timed for the latency (0: skip it)")
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--cycles", type=int, default=0,
                        help="then open and close --idle streams this many times (leak check)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

    db_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    with tempfile.TemporaryDirectory(prefix="c10s-bench-events-") as var_dir:
        env = _server_env(db_url, var_dir)
        env.update(DB_CONN_MAX_AGE="0", LIVE_BACKEND=args.backend, LIVE_MAX_STREAMS_PER_USER=str(
            args.idle + 10), LIVE_POLL_SECONDS="0.2", NOTIFY_QUEUE="c10s-bench-unused")
        env["REDIS_URL"] = (os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
                            if args.backend == "redis" else "")
        if env["REDIS_URL"]:
            env["CACHE_REDIS_URL"] = env["REDIS_URL"][:-1] + "7"
        _recreate_database(db_url)
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        from tests.live.server import start_server, stop_server

        server, base = start_server(db_url=db_url, extra_env=env)
        try:
            if args.moves:
                samples = latency(base, args.moves)
                ms = sorted(s * 1000 for s in samples)
                p95 = statistics.quantiles(ms, n=100, method="inclusive")[94]
                print(f"backend={args.backend}: move committed -> event on the opponent's "
                      f"stream, {len(ms)} moves: p50 {statistics.median(ms):.1f} ms, "
                      f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms", flush=True)
            from django.contrib.auth import get_user_model

            from accounts import tokens

            idle_user = get_user_model().objects.create_user("bench_idle", "i@example.test",
                                                             "x-Pass-123!")
            token = tokens.issue(user=idle_user, name="bench")[1]
            time.sleep(1)
            before = rss_mb(server.pid)
            threads_before = threads(server.pid)

            holding: list[int] = []

            async def hold() -> tuple[int, float]:
                responses = await idle_streams(base, args.idle, token)
                await asyncio.sleep(3)
                ok = sum(r.status_code == 200 for r in responses)
                if ok < len(responses):
                    from collections import Counter

                    print("statuses:", Counter(r.status_code for r in responses))
                after = rss_mb(server.pid)
                holding.append(threads(server.pid))
                for r in responses:
                    await r.aclose()
                return ok, after

            ok, after = asyncio.run(hold())
            time.sleep(3)  # the server notices the closed connections
            closed = rss_mb(server.pid)
            print(f"{ok} idle streams open on one uvicorn process: RSS {before:.0f} MB -> "
                  f"{after:.0f} MB (+{after - before:.0f} MB); all closed: {closed:.0f} MB; "
                  f"server threads {threads_before} -> {holding[0]}", flush=True)
            # A leak grows with every round; memory the allocator keeps for reuse does not.
            rounds = []
            for _ in range(args.cycles):
                asyncio.run(hold())
                time.sleep(3)
                rounds.append(rss_mb(server.pid))
            if rounds:
                print(f"open and close {args.idle} streams {args.cycles} times: RSS after each "
                      f"round (MB) {' '.join(f'{r:.0f}' for r in rounds)}")
            print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        finally:
            stop_server(server)


if __name__ == "__main__":
    main()

"""Server time of the lists and pages of a player with many games:
``python bench/lists.py [--finished 1000] [--active 100] [--requests 200]``.

In its own database ``c10s_lists_bench`` (``BENCH_DATABASE_URL``) one player gets
``--finished`` finished and ``--active`` active games (half Crazy10s against a computer, half
Crazy Eights against the regulars; copies of real games, so every page draws a real
position). Each URL is then requested through Django's whole stack in this process
(middleware, session or token, view, selectors, serializers or templates; no network) and the
median and p95 server time and the queries per request are printed, with the load average.
The tables are analysed before the clock starts, as autovacuum would have done.
Issue 28 asks for the list under 20 ms p95 and a game page under 100 ms p95, with a query
count that does not depend on the number of games (tests/web/test_query_counts.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402
from bench.web_pages import set_up_django  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_lists_bench"


def _copies(template, count: int) -> None:
    """``count`` copies of a game (its row and seats) for the same players."""
    from games.models import Game, Seat

    seats = list(Seat.objects.filter(game=template).order_by("index"))
    fields = [f.attname for f in Game._meta.concrete_fields if f.attname != "id"]
    games = Game.objects.bulk_create(
        Game(**{name: getattr(template, name) for name in fields}) for _ in range(count)
    )
    seat_fields = [f.attname for f in Seat._meta.concrete_fields
                   if f.attname not in {"id", "game_id"}]
    Seat.objects.bulk_create(
        Seat(game=game, **{name: getattr(seat, name) for name in seat_fields})
        for game in games for seat in seats
    )


def build(user, finished: int, active: int):
    """The player's games; returns an active game of each kind (the pages to time)."""
    from games import dispatch, services

    dispatch.enqueue_ai_turn = lambda *args, **kwargs: None  # nobody plays the computers here
    templates = {
        "crazy10s": lambda: services.create_game(user=user, opponent={"ai": "casual"}),
        "crazy_eights": lambda: services.create_game(
            user=user, kind="crazy_eights", opponents=["cautious", "strong"]),
    }
    pages = {}
    for kind, create in templates.items():
        playing = create()
        over = create()
        services.resign(game_id=over.pk, user=user)
        over.refresh_from_db()
        _copies(over, finished // 2 - 1)
        _copies(playing, active // 2 - 1)
        pages[kind] = playing
    return pages


def time_urls(client, urls: dict[str, str], requests: int, **headers) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for name, url in urls.items():
        client.get(url, **headers)  # warm-up
        times, cpu = [], []
        for _ in range(requests):
            started, started_cpu = time.perf_counter(), time.thread_time()
            response = client.get(url, **headers)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - started_cpu) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        with CaptureQueriesContext(connection) as queries:
            client.get(url, **headers)
        # Wall time, and this process's CPU time (the web's own work, without the database's
        # and without waiting for a core: steadier than the wall time on a loaded machine).
        print(f"{name:34} median {statistics.median(times):6.1f} ms  p95 {_p95(times):6.1f} ms"
              f"  (CPU median {statistics.median(cpu):5.1f}  p95 {_p95(cpu):5.1f})  "
              f"{len(queries.captured_queries):3d} queries")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--active", type=int, default=100)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--profile", metavar="NAME",
                        help="then pyinstrument's call tree of this URL's requests (CPU time), "
                             "e.g. lists for the web lists fragment")
    args = parser.parse_args()

    plain_static_files = set_up_django(DEFAULT_DB, "c10s-lists-bench-")
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts import tokens
    from games.models import Game

    user = get_user_model().objects.create_user("bench_lists", "l@example.test", "x-Pass-123!")
    started = time.perf_counter()
    pages = build(user, args.finished, args.active)
    from django.db import connection

    # What autovacuum does within a minute of such a load (its analyze threshold is 10 % of a
    # table): without statistics the planner takes 1,100 rows for 10 and joins accordingly.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    mine = Game.objects.filter(seats__user=user)
    print(f"{mine.filter(status='finished').count()} finished and "
          f"{mine.filter(status='active').count()} active games of one player, made in "
          f"{time.perf_counter() - started:.1f} s; {args.requests} requests per URL; "
          f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); {describe()}")
    with plain_static_files:
        web = Client()
        web.force_login(user)
        time_urls(web, {
            "web: your games (home)": "/",
            "web: the lists alone (on an event)": "/games/lists",
            "web: Crazy10s game page": f"/games/{pages['crazy10s'].pk}",
            "web: Crazy Eights game page": f"/games/{pages['crazy_eights'].pk}",
        }, args.requests)
        api = APIClient()
        _device, token = tokens.issue(user=user, name="bench")
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        time_urls(api, {
            "API: GET games (active)": "/api/v1/games",
            "API: GET games?status=finished": "/api/v1/games?status=finished",
            "API: GET games/{id} (Crazy10s)": f"/api/v1/games/{pages['crazy10s'].pk}",
        }, args.requests)
    print(f"load average after: {os.getloadavg()[0]:.2f}; {describe()}")
    if args.profile:
        with plain_static_files:
            _profile(web, {"home": "/", "lists": "/games/lists"}.get(args.profile, args.profile),
                       args.requests)


def _profile(client, url: str, requests: int) -> None:
    """Where the CPU time of ``url``'s requests goes (a development tool: pip install
    pyinstrument)."""
    from pyinstrument import Profiler
    from pyinstrument.stack_sampler import get_stack_sampler

    get_stack_sampler().timer_func = time.thread_time
    profiler = Profiler(interval=0.0002, async_mode="disabled")
    with profiler:
        for _ in range(requests):
            assert client.get(url).status_code == 200
    print(f"\n--- pyinstrument, {requests} requests of {url} (CPU seconds in all: x "
          f"{1000 / requests:.2f} = ms per request) ---")
    print(profiler.output_text(show_all=False, unicode=False, color=False))


if __name__ == "__main__":
    main()

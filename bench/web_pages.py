"""Server time of the web client's pages: ``python bench/web_pages.py [--requests 200]``.

Builds a game played until the bag is empty (the fullest board a game page draws) in its own
database ``c10s_web_bench`` (``BENCH_DATABASE_URL``), then requests each page through Django's
whole stack in this process (middleware, session, view, selectors, templates; no network) and
prints the median and p95 time per request and the HTML size. Issue 13 asks for the game page
with a full board under 100 ms of server time and every page under 50 KB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import _recreate_database, _server_env  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_web_bench"


def set_up_django(default_db: str, prefix: str):
    """A fresh, migrated bench database and Django set up on it, with the environment and the
    garbage collector set-up of bench/api.py's servers; returns a context manager serving
    static files unhashed (the bench does not collect them)."""
    db_url = os.environ.get("BENCH_DATABASE_URL", default_db)
    _recreate_database(db_url)
    os.environ.update(_server_env(db_url, tempfile.mkdtemp(prefix=prefix)))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import override_settings

    call_command("migrate", verbosity=0)
    from config.gc_tuning import freeze_after_startup

    freeze_after_startup()  # as the web processes do (WEB_GC_FREEZE)
    return override_settings(STORAGES={
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    })


def time_pages(client, pages: dict[str, str], requests: int) -> None:
    """Median and p95 server time and the HTML size of each page, after one warm-up request."""
    for name, url in pages.items():
        client.get(url)  # warm-up (template loading, puzzle generation)
        times = []
        size = 0
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            size = len(response.content)
        times.sort()
        p95 = times[max(0, round(0.95 * len(times)) - 1)]
        print(f"{name:28} median {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms  "
              f"HTML {size / 1024:5.1f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    plain_static_files = set_up_django(DEFAULT_DB, "c10s-web-bench-")
    from django.test import Client

    with plain_static_files:
        run(args.requests, Client)


def run(requests: int, client_class) -> None:
    from django.contrib.auth import get_user_model

    from tests.web.full_board import play_until_the_bag_is_empty, tiles_on_board

    users = get_user_model()
    alice = users.objects.create_user("bench_alice", "a@example.test", "x-Pass-123!")
    bob = users.objects.create_user("bench_bob", "b@example.test", "x-Pass-123!")
    game = play_until_the_bag_is_empty(first=alice, second=bob)
    client = client_class()
    client.force_login(alice)
    pages = {
        "game page (full board)": f"/games/{game.pk}",
        "game panel (htmx refresh)": f"/games/{game.pk}/panel",
        "your games": "/",
        "daily puzzle": "/puzzle",
        "new game": "/games/new",
        "settings": "/settings",
    }
    print(f"game {game.pk}: {tiles_on_board(game)} tiles on the board, move {game.move_number}, "
          f"{requests} requests per page")
    time_pages(client, pages, requests)


if __name__ == "__main__":
    main()

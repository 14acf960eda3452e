"""Server time of the Crazy Eights pages: ``python bench/web_crazy_eights.py [--requests 200]``.

In its own database ``c10s_web_c8_bench`` (``BENCH_DATABASE_URL``): a four-seat solo match
played 100 moves on (the person takes the hint, three regulars play), and a table with two
people; each page is requested through Django's whole stack in this process (middleware,
session, view, selectors, templates; no network). Prints the median and p95 per request and
the HTML size (issue 13: every page under 50 KB).
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

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_web_c8_bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    db_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    _recreate_database(db_url)
    os.environ.update(_server_env(db_url, tempfile.mkdtemp(prefix="c10s-web-c8-bench-")))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client, override_settings

    call_command("migrate", verbosity=0)
    plain_static = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # The computers' turns are played here, in order: nothing is sent to a broker.
    from games import dispatch

    dispatch.enqueue_ai_turn = lambda game_id, number: None
    with override_settings(STORAGES=plain_static):
        run(args.requests, Client)


def run(requests: int, client_class) -> None:
    from django.contrib.auth import get_user_model

    from games import services
    from games.tables import services as tables
    from tests.web.c8_match import play_on

    users = get_user_model()
    alice = users.objects.create_user("bench_alice", "a@example.test", "x-Pass-123!")
    bob = users.objects.create_user("bench_bob", "b@example.test", "x-Pass-123!")
    game = services.create_game(user=alice, kind="crazy_eights",
                                opponents=["cautious", "aggressive", "strong"], rules={})
    game = play_on(game, alice, 100)
    table = tables.create_table(user=alice, target=100, rules={})
    tables.join(user=bob, code=table.code)
    client = client_class()
    client.force_login(alice)
    pages = {
        "Crazy Eights game page": f"/games/{game.pk}",
        "its panel (htmx refresh)": f"/games/{game.pk}/panel",
        "table lobby": f"/tables/{table.code}",
        "table lobby panel": f"/tables/{table.code}/panel",
        "new game (both kinds)": "/games/new",
    }
    print(f"game {game.pk}: 4 seats, move {game.move_number} ({game.status}), "
          f"{requests} requests per page")
    for name, url in pages.items():
        client.get(url)  # warm-up (template loading)
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


if __name__ == "__main__":
    main()

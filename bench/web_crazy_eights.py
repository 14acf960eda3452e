"""Server time of the Crazy Eights pages: ``python bench/web_crazy_eights.py [--requests 200]``.

In its own database ``c10s_web_c8_bench`` (``BENCH_DATABASE_URL``): a four-seat solo match
played 100 moves on (the person takes the hint, three regulars play), and a table with two
people; each page is requested through Django's whole stack in this process (middleware,
session, view, selectors, templates; no network). Prints the median and p95 per request and
the HTML size (issue 13: every page under 50 KB).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_pages import set_up_django, time_pages  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_web_c8_bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    plain_static_files = set_up_django(DEFAULT_DB, "c10s-web-c8-bench-")
    from django.test import Client

    # The computers' turns are played here, in order: nothing is sent to a broker.
    from games import dispatch

    dispatch.enqueue_ai_turn = lambda game_id, number: None
    with plain_static_files:
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
    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
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
    time_pages(client, pages, requests)


if __name__ == "__main__":
    main()

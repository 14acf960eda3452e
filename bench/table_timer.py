"""Lateness of a table's turn timer: takeover time minus deadline, over N timed-out turns.

Real pieces: PostgreSQL, Redis, one Celery worker process (solo pool) running the
``games.expire_turn`` tasks (one per turn, sent with a countdown) and the computers' turns.
One person sits at a four-seat table with three computers and never moves; after each
takeover she calls ``back`` so her next turn is timed again. A finished match deals a new
table. For each timed-out turn two figures are taken:

- *saved*: the takeover move's ``created_at`` (stamped in the worker's transaction) minus the
  deadline;
- *seen*: when this process, polling the database every 10 ms, first sees the move, minus
  the deadline (what a client polling fast would see, at best).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_table_bench \
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/table_timer.py [N] [--turn S]
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
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_table_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off by default: both secrets are required
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ["GAMES_AI_PAUSE_MS"] = "0"  # computers reply at once (the worker inherits it)
os.environ.setdefault("LOG_LEVEL", "WARNING")

from bench.notify_latency import ensure_database, percentile  # noqa: E402


def summary(name: str, values: list[float]) -> str:
    return (f"  {name:5s} p50 {statistics.median(values):7.1f}  p95 "
            f"{percentile(values, 0.95):7.1f}  max {max(values):7.1f}  min {min(values):7.1f}")


def main(n: int, turn: int) -> None:
    os.environ["TABLES_TURN_SECONDS"] = str(turn)
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import Game, Move, Seat
    from games.tables import services as tables
    from tests.integration.workers import remove_log, start_worker, stop_worker

    call_command("migrate", verbosity=0)
    queue = f"c10s-bench-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    worker = start_worker(queue=queue, db_url=os.environ["DATABASE_URL"])
    tag = uuid.uuid4().hex[:6]
    person = get_user_model().objects.create_user(
        f"bench-t-{tag}", f"t-{tag}@example.test", "x-bench-Pass1"
    )
    saved: list[float] = []
    seen: list[float] = []
    tables_dealt = 0
    try:
        while len(saved) < n:
            table = tables.create_table(user=person, options={"target": 100, "rules": {}})
            table = tables.deal(user=person, code=table.code)
            tables_dealt += 1
            game = Game.objects.get(pk=table.game_id)
            seat = Seat.objects.get(game=game, user=person)
            while len(saved) < n:
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                seat.refresh_from_db()
                if game.current_seat != seat.index or seat.away or game.turn_deadline is None:
                    time.sleep(0.01)
                    continue
                number = game.move_number + 1
                deadline = game.turn_deadline.timestamp()
                give_up = time.time() + turn + 30
                while (move := Move.objects.filter(game=game, number=number).first()) is None:
                    if time.time() > give_up:
                        raise SystemExit(f"no takeover of move {number} of game {game.pk}")
                    time.sleep(0.01)
                seen.append((time.time() - deadline) * 1000)
                if move.seat != seat.index or not move.is_timeout:
                    raise SystemExit(f"move {number} is not the takeover: {move.notation}")
                saved.append((move.created_at.timestamp() - deadline) * 1000)
                tables.back(user=person, code=table.code)
            tables.leave(user=person, code=table.code)  # closes the table (and any match)
    finally:
        stop_worker(worker)
        remove_log(worker)
    print(f"table timer lateness over {len(saved)} timed-out turns "
          f"(TABLES_TURN_SECONDS={turn}, {tables_dealt} tables; ms after the deadline):")
    print(summary("saved", saved))
    print(summary("seen", seen))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=100)
    parser.add_argument("--turn", type=int, default=2, help="TABLES_TURN_SECONDS")
    args = parser.parse_args()
    main(args.n, args.turn)

"""The rating path and the profile: how long ``social.rate_game`` takes for a finished
Crazy10s game (the Glicko-2 update of both players in one transaction), and
``GET players/{username}`` for a player with those games.

Games are played to the end between two people through the games services, each move chosen
by the "strong" computer level for whoever is to move (no worker: rating messages are not
sent; the bench calls the service itself).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/c10s_social_bench \
    .venv/bin/python bench/ratings.py [N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/c10s_social_bench")
os.environ.pop("REDIS_URL", None)  # no broker needed: nothing is queued
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b3n" * 12)
os.environ.setdefault("PUZZLE_SECRET", "bench-only-puzzle-secret-" + "p7z" * 12)
os.environ.setdefault("LOG_LEVEL", "WARNING")

from bench.notify_latency import ensure_database, percentile  # noqa: E402


def ms(values: list[float]) -> str:
    return (f"p50 {statistics.median(values) * 1000:7.1f} ms  p95 "
            f"{percentile(values, 0.95) * 1000:7.1f} ms  max {max(values) * 1000:7.1f} ms")


def main(n: int) -> None:
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from games import dispatch, kinds, services
    from games.models import Game
    from social.services import ratings

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.SECURE_SSL_REDIRECT = False
    dispatch.enqueue_rating = lambda game_id: True  # the bench rates each game itself
    dispatch.enqueue_ai_turn = lambda *a, **k: True
    users = get_user_model().objects
    tag = uuid.uuid4().hex[:6]
    alice = users.create_user(f"ra{tag}", password="x-bench-Pass1", email=f"ra{tag}@b.test")
    bob = users.create_user(f"rb{tag}", password="x-bench-Pass1", email=f"rb{tag}@b.test")
    kind = kinds.get("crazy10s")
    rng = random.Random(7)
    rate_times, moves = [], []
    for _ in range(n):
        game = services.create_game(user=alice, opponent={"username": bob.username})
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            state = kind.load(game.state)
            player = alice if game.seats.get(index=game.current_seat).user_id == alice.pk else bob
            move = kind.computer_move(state, "strong", rng)
            notation = kind.play(state, move, seat=game.current_seat).record.notation
            services.submit_move(game_id=game.pk, user=player, move=notation,
                                 expected_move_number=game.move_number)
        moves.append(game.move_number)
        start = time.perf_counter()
        assert ratings.rate_game(game_id=game.pk)
        rate_times.append(time.perf_counter() - start)
    client = APIClient()
    client.force_authenticate(bob)
    profile_times = []
    for _ in range(30):
        start = time.perf_counter()
        assert client.get(f"/api/v1/players/{alice.username}").status_code == 200
        profile_times.append(time.perf_counter() - start)
    print(f"{n} finished games, {statistics.median(moves):.0f} moves each (median)")
    print(f"  rate_game (Glicko-2 update)    {ms(rate_times)}")
    print(f"  GET players/<name> (30 calls)  {ms(profile_times)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=20)
    main(parser.parse_args().n)

"""Two analyses of the same game at once (the move's own message and the game-end task, or a
duplicate delivery) on real PostgreSQL: each move is written once and announced once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import dispatch, services
from games.models import Move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_analyses_write_and_announce_each_move_once(
    alice, bob, ai_queue, fixed_seed, monkeypatch, game_effects
):
    monkeypatch.setattr(dispatch, "enqueue_analysis", lambda g, n: True)  # run them here
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.submit_move(game_id=game.pk, user=bob, move="pass", expected_move_number=1)
    services.submit_move(game_id=game.pk, user=alice, move="pass", expected_move_number=2)
    services.resign(game_id=game.pk, user=bob)

    lock = threading.Lock()
    barrier = threading.Barrier(4)
    written: list[list[int]] = []
    failures: list[BaseException] = []

    def analyse(up_to: int | None) -> None:
        try:
            barrier.wait(timeout=10)
            result = services.analyse_moves(game_id=game.pk, up_to=up_to)
            with lock:
                written.append(result)
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=analyse, args=(n,)) for n in (None, None, 3, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    announced = [d["move_number"] for name, _, d in game_effects if name == "move_analysed"]
    assert sorted(n for numbers in written for n in numbers) == [1, 2, 3]
    assert sorted(announced) == [1, 2, 3]
    assert Move.objects.filter(game=game, best_score__isnull=False).count() == 3

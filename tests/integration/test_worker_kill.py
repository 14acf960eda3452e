"""A worker killed with SIGKILL in the middle of a computer turn: the task comes back (late
acknowledgement + visibility timeout) and the computer's move is played exactly once."""

import os
import signal
import time
import uuid

import pytest

from games import services
from games.models import Game, Move
from tests.integration.workers import (
    remove_log,
    start_worker,
    stop_worker,
    worker_database_url,
    worker_log,
)

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

VISIBILITY = "4"  # seconds: a short visibility timeout so the lost task returns quickly


def wait_until(condition, timeout: float, what: str, worker) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} not within {timeout} s\n{worker_log(worker)}")


def test_computer_turn_survives_a_killed_worker(settings, alice, monkeypatch, tmp_path):
    queue = f"c10s-kill-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    marker = tmp_path / "ai-turn-started"
    db_url = worker_database_url()
    short = {"CELERY_VISIBILITY_TIMEOUT": VISIBILITY, "CELERY_UNACKED_RESTORE_INTERVAL": "1"}
    slow = start_worker(
        queue=queue,
        db_url=db_url,
        app="tests.integration.slow_ai_worker",
        extra_env={
            **short,
            "C10S_AI_TURN_DELAY_SECONDS": "60",
            "C10S_AI_TURN_MARKER": str(marker),
        },
    )
    rescuer = None
    try:
        # the computer moves first
        monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
        game = services.create_game(user=alice, opponent={"ai": "beginner"})
        wait_until(marker.exists, 30, "the computer's turn to start", slow)
        os.kill(slow.pid, signal.SIGKILL)  # inside the turn's transaction (row locked)
        slow.wait(timeout=10)
        assert not Move.objects.filter(game=game).exists()  # rolled back with the connection

        rescuer = start_worker(queue=queue, db_url=db_url, extra_env=short)
        wait_until(
            lambda: Move.objects.filter(game=game).exists(), 40, "the computer's move", rescuer
        )
        time.sleep(float(VISIBILITY) + 2)  # a second delivery would have played by now
        moves = list(Move.objects.filter(game=game))
        assert [(m.number, m.seat) for m in moves] == [(1, 1)]
        game.refresh_from_db()
        assert game.move_number == 1 and game.current_seat == 0
        assert game.status == Game.Status.ACTIVE
    finally:
        for proc in (slow, rescuer):
            if proc is not None:
                stop_worker(proc)
                remove_log(proc)

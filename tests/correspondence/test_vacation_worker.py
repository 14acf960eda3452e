"""A real Celery worker runs the deadline sweep at the moment a vacation has run out (before
the vacation task ended it), then the vacation task, then the sweep again: no timeout, and the
turn resumes with the hour it had left."""

import re
import time
import uuid
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from games import services
from games.correspondence.models import Vacation
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


@pytest.fixture
def worker(settings):
    queue = f"c10s-corr-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    proc = start_worker(queue=queue, db_url=worker_database_url())
    proc.queue = queue
    yield proc
    stop_worker(proc)
    remove_log(proc)


def _run(worker, name: str, timeout: float = 60) -> str:
    """Send task ``name`` to the worker and wait for its result line; its return value."""
    task_id = current_app.send_task(name, queue=worker.queue).id
    pattern = re.compile(rf"Task {re.escape(name)}\[{task_id}\] succeeded in [\d.e-]+s: (.*)")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = pattern.search(worker_log(worker, tail=100_000))
        if found:
            return found.group(1).strip()
        time.sleep(0.1)
    raise AssertionError(f"{name} did not finish:\n{worker_log(worker)}")


def test_the_sweep_at_the_end_of_a_vacation_times_nothing_out(worker, alice, bob, fixed_seed):
    game = services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=24)
    now = timezone.now()
    began, ran_out = now - timedelta(days=1), now - timedelta(seconds=1)
    # alice's turn had one hour left when her one-day vacation began; it has just run out.
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=began - timedelta(hours=23), turn_deadline=began + timedelta(hours=1)
    )
    Vacation.objects.create(user=alice, started_at=began, ends_at=ran_out)

    assert _run(worker, "clocks.sweep_expired_turns") == "0"
    assert not Move.objects.filter(game=game).exists()
    assert _run(worker, "correspondence.end_vacations") == "1"
    game.refresh_from_db()
    assert game.turn_deadline == ran_out + timedelta(hours=1)
    assert Vacation.objects.get().ended_at == ran_out
    assert _run(worker, "clocks.sweep_expired_turns") == "0"
    assert _run(worker, "correspondence.end_vacations") == "0"  # idempotent
    assert not Move.objects.filter(game=game).exists()

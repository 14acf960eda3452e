"""The computer-turn task and the sweep that re-queues lost turns."""

from datetime import timedelta

import psycopg
import pytest
import time_machine
from django.conf import settings
from django.db import OperationalError, connection
from django.utils import timezone

from games import dispatch, services, tasks, turn_locks
from games.models import Game, Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def ai_first_game(alice, monkeypatch, ai_queue):
    # the computer moves first
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
    return services.create_game(user=alice, opponent={"ai": "beginner"})


def test_task_plays_the_computer_turn_once(ai_first_game):
    # called eagerly, as a worker would run it
    assert tasks.play_ai_turn.apply(args=(ai_first_game.pk, 0)).get() == 1
    assert tasks.play_ai_turn.apply(args=(ai_first_game.pk, 0)).get() is None  # redelivered
    assert Move.objects.filter(game=ai_first_game).count() == 1
    game = Game.objects.get(pk=ai_first_game.pk)
    assert game.current_seat == 0 and game.move_number == 1


def test_task_is_late_acked_and_retried_on_database_errors():
    task = tasks.play_ai_turn
    assert task.acks_late is True
    assert OperationalError in task.autoretry_for
    assert task.max_retries == 5 and task.retry_backoff


def _pending_for(game, seconds: float) -> None:
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_sweep_requeues_only_stale_computer_turns(ai_first_game, human_game, ai_queue):
    assert tasks.sweep_ai_turns() == 0  # the computer's turn has just begun
    stale = tasks.ai_turn_stale_after().total_seconds() + 1
    for game in (ai_first_game, human_game):
        _pending_for(game, stale)
    ai_queue.clear()
    assert tasks.sweep_ai_turns() == 1
    assert ai_queue == [(ai_first_game.pk, 0)]


@pytest.fixture
def other_session():
    """Another PostgreSQL session (a worker's, a second sweep's): advisory locks are
    re-entrant within one session, so a lock must be held by another to be seen as taken.
    Its tests are marked postgres, so scripts/test.sh leaves them out on SQLite."""
    assert connection.vendor == "postgresql", "advisory locks are PostgreSQL's"
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as session:
        yield session


@pytest.mark.postgres
def test_sweep_requeues_within_seconds_a_turn_no_worker_plays(ai_first_game, ai_queue,
                                                            other_session):
    """A worker SIGKILLed while it held the turn's message: its connection, and with it the
    turn lock, is gone at once, so the turn is queued again after a few seconds instead of
    waiting for the broker's visibility timeout (45 s)."""
    start_after = tasks.ai_turn_start_after().total_seconds()
    assert start_after < 10
    ai_queue.clear()
    _pending_for(ai_first_game, start_after - 1)
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []  # its task may still be starting
    _pending_for(ai_first_game, start_after + 1)
    key = turn_locks._key(ai_first_game.pk)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert turn_locks.being_played(ai_first_game.pk)
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []  # a worker is playing it
    other_session.execute("SELECT pg_advisory_unlock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert not turn_locks.being_played(ai_first_game.pk)  # that worker died
    assert tasks.sweep_ai_turns() == 1
    assert ai_queue == [(ai_first_game.pk, 0)]


@pytest.mark.postgres
def test_a_turn_a_worker_took_and_lost_is_requeued_at_once(ai_first_game, ai_queue,
                                                          other_session, monkeypatch):
    """The worker was SIGKILLed mid-turn: it had taken the turn (under the turn lock), the lock
    is gone, the turn is still due. No need to wait ``ai_turn_start_after``: the player is
    looking at "thinking..." (issue 28: under 10 s from the kill)."""
    seen = []

    def dies_mid_turn(*, game_id, expected_move_number):
        seen.append(tasks._started([(game_id, expected_move_number)]))
        raise SystemExit  # what a SIGKILL leaves: the turn taken, not played

    monkeypatch.setattr(services, "play_ai_turn", dies_mid_turn)
    ai_queue.clear()
    with pytest.raises(SystemExit):
        tasks.play_ai_turn(ai_first_game.pk, 0)
    assert seen == [{(ai_first_game.pk, 0)}]  # noted under the lock, before the search
    assert not turn_locks.being_played(ai_first_game.pk)
    assert tasks.sweep_ai_turns() == 1
    assert ai_queue == [(ai_first_game.pk, 0)]


@pytest.mark.postgres
def test_a_taken_turn_is_left_alone_while_its_worker_plays_it(ai_first_game, ai_queue,
                                                            other_session):
    ai_queue.clear()
    tasks._mark_started(ai_first_game.pk, 1)  # another turn's mark says nothing about this one
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []  # not taken: it may be starting
    tasks._mark_started(ai_first_game.pk, 0)
    key = turn_locks._key(ai_first_game.pk)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []  # taken, and being played
    other_session.execute("SELECT pg_advisory_unlock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert tasks.sweep_ai_turns() == 1 and ai_queue == [(ai_first_game.pk, 0)]


@pytest.mark.postgres
def test_a_taken_turn_played_while_the_sweep_looked_is_not_queued_again(
    ai_first_game, ai_queue, monkeypatch
):
    """The sweep read the turn, then its worker committed the move and let the lock go: the
    lock is free and the mark still there, but the turn is gone."""
    tasks._mark_started(ai_first_game.pk, 0)

    def played_meanwhile(game_id):
        Game.objects.filter(pk=game_id).update(move_number=1)
        return False

    monkeypatch.setattr(turn_locks, "being_played", played_meanwhile)
    ai_queue.clear()
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []


def test_a_hung_cache_costs_the_turn_no_wait(ai_first_game, monkeypatch):
    from django.core.cache import cache

    from config import redis_health

    def hung(*args, **kwargs):
        raise AssertionError("the cache was asked while Redis is known to fail")

    redis_health.note_failure()
    try:
        monkeypatch.setattr(cache, "set", hung)
        monkeypatch.setattr(cache, "get_many", hung)
        tasks._mark_started(ai_first_game.pk, 0)
        assert tasks._started([(ai_first_game.pk, 0)]) == set()
    finally:
        redis_health.forget()


@pytest.mark.postgres
def test_a_second_message_leaves_the_turn_to_the_worker_playing_it(ai_first_game,
                                                                   other_session):
    key = turn_locks._key(ai_first_game.pk)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert tasks.play_ai_turn.apply(args=(ai_first_game.pk, 0)).get() is None
    assert not Move.objects.filter(game=ai_first_game).exists()
    other_session.execute("SELECT pg_advisory_unlock(%s, %s)", [turn_locks.COMPUTER_TURN, key])
    assert tasks.play_ai_turn.apply(args=(ai_first_game.pk, 0)).get() == 1
    assert not turn_locks.being_played(ai_first_game.pk)  # released after the turn


@pytest.mark.postgres
def test_two_sweeps_do_not_double_up(ai_first_game, ai_queue, other_session):
    _pending_for(ai_first_game, 600)
    ai_queue.clear()
    other_session.execute("SELECT pg_advisory_lock(%s, 0)", [turn_locks.SWEEP])
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []  # another sweep is running
    other_session.execute("SELECT pg_advisory_unlock(%s, 0)", [turn_locks.SWEEP])
    assert tasks.sweep_ai_turns() == 1


def test_without_advisory_locks_the_sweep_waits_past_the_visibility_timeout(
    ai_first_game, ai_queue, settings, monkeypatch
):
    """SQLite (``make run``) cannot tell whether a worker plays a turn: before the broker's
    visibility timeout (+15 s) a taken message may still come back by itself."""
    monkeypatch.setattr(turn_locks, "supported", lambda: False)
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 100}
    ai_queue.clear()
    _pending_for(ai_first_game, 114)
    assert tasks.sweep_ai_turns() == 0 and ai_queue == []
    _pending_for(ai_first_game, 116)
    assert tasks.sweep_ai_turns() == 1


def test_sweep_requeues_a_turn_once_per_interval(ai_first_game, ai_queue):
    """Under a backlog every sweep would otherwise add one more duplicate message."""
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        _pending_for(ai_first_game, 600)
        ai_queue.clear()
        assert tasks.sweep_ai_turns() == 1
    with time_machine.travel(start + timedelta(seconds=30), tick=False):
        assert tasks.sweep_ai_turns() == 0  # the next beat: not again yet
    interval = tasks.ai_turn_stale_after()
    with time_machine.travel(start + interval + timedelta(seconds=1), tick=False):
        assert tasks.sweep_ai_turns() == 1  # that message may be lost too
    assert ai_queue == [(ai_first_game.pk, 0)] * 2


def test_sweep_ignores_finished_games(ai_first_game, alice, ai_queue):
    services.resign(game_id=ai_first_game.pk, user=alice)
    Game.objects.filter(pk=ai_first_game.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=5)
    )
    assert tasks.sweep_ai_turns() == 0


def test_sweep_runs_every_2_seconds():
    entry = settings.CELERY_BEAT_SCHEDULE["games-sweep-ai-turns"]
    assert entry == {"task": "games.sweep_ai_turns", "schedule": 2.0}


def test_enqueue_uses_the_configured_queue(monkeypatch, settings):
    """dispatch sends by name; the router (CELERY_TASK_ROUTES) picks GAMES_AI_QUEUE."""
    from celery import current_app

    sent = []
    monkeypatch.setattr(
        current_app.amqp, "send_task_message",
        lambda producer, name, message, **options: sent.append(
            (name, message.headers["argsrepr"], options.get("queue"))
        ),
    )
    settings.GAMES_AI_QUEUE = "ai-test"
    assert dispatch.enqueue_ai_turn(7, 3) is True
    settings.GAMES_AI_QUEUE = None
    assert dispatch.enqueue_ai_turn(7, 4) is True
    queues = [getattr(queue, "name", queue) for _, _, queue in sent]
    assert [(name, args) for name, args, _ in sent] == [
        ("games.play_ai_turn", "(7, 3)"), ("games.play_ai_turn", "(7, 4)")
    ]
    assert queues[0] == "ai-test" and queues[1] != "ai-test"
    assert dispatch.route_task("games.play_ai_turn", (), {}, {}) is None  # default queue

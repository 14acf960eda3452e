"""Task options, worker delivery settings, the sweep task and re-queueing lost sends."""

from datetime import timedelta
from smtplib import SMTPException

import pytest
from django.conf import settings
from django.utils import timezone

from games import dispatch
from games.models import Seat
from games.notifications import services, tasks
from games.notifications.models import SentNotification, Status


def test_a_task_lost_with_a_killed_worker_returns_within_a_minute():
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    if "visibility_timeout" in options:  # Redis broker
        scan = options["unacked_restore_interval"] * options["unacked_restore_throttle"]
        assert options["visibility_timeout"] + scan < 60
        # ...and longer than the longest retry countdown of the send task.
        assert tasks.send_notification.retry_backoff_max < options["visibility_timeout"]


def test_send_task_retries_smtp_failures_with_backoff():
    task = tasks.send_notification
    assert SMTPException in task.autoretry_for and OSError in task.autoretry_for
    assert task.retry_backoff and task.max_retries >= 3


@pytest.mark.django_db
def test_sweep_task_sends_due_reminders(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    from games.models import Game

    Game.objects.filter(pk=human_game.pk).update(
        turn_deadline=timezone.now() + timedelta(minutes=30)
    )
    assert tasks.sweep_notifications.apply().get() == {
        "gathered": 0,
        "reminders": 1,
        "requeued": 0,
        "pushes_requeued": 0,
    }
    assert len(queued_sends) == 1


@pytest.mark.django_db
def test_lost_sends_are_queued_again_and_given_up_after_many_attempts(
    human_game, alice, bob, play, queued_sends, monkeypatch
):
    published: list[int] = []
    monkeypatch.setattr(dispatch, "enqueue_send", lambda pk: published.append(pk) or True)
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    assert services.requeue_stuck() == 0  # fresh: its task is on its way
    later = timezone.now() + timedelta(minutes=3)
    assert services.requeue_stuck(now=later) == 1 and published == [n.pk]
    SentNotification.objects.filter(pk=n.pk).update(attempts=services.MAX_SEND_ATTEMPTS)
    assert services.requeue_stuck(now=later) == 0
    n.refresh_from_db()
    assert n.status == Status.FAILED


@pytest.mark.django_db
def test_reading_the_move_list_counts_as_looking(human_game, alice, bob, play, make_client):
    play(human_game, alice, "g7=5 h7=5")
    assert make_client(bob).get(f"/api/v1/games/{human_game.pk}/moves").status_code == 200
    assert Seat.objects.get(game=human_game, user=bob).last_seen_at is not None
    assert services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1) is None

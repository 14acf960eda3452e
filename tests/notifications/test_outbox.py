"""The outbox: a game event is recorded in the transaction of the write that caused it, decided
once (by its task or the sweep), and a lost or unpublishable message loses no email."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games import services as game_services
from games.models import Game
from games.notifications import services, tasks
from games.notifications.models import EventKind, NotificationEvent, SentNotification, Status

pytestmark = pytest.mark.django_db


def test_a_move_records_its_turn_event_in_its_own_transaction(human_game, alice, bob, play):
    play(human_game, alice, "g7=5 h7=5")
    event = NotificationEvent.objects.get(kind=EventKind.TURN)
    assert (event.game_id, event.seat_index, event.move_number) == (human_game.pk, 1, 1)
    assert event.recipient == bob and event.processed_at is None

    # A write that rolls back leaves no event behind.
    with pytest.raises(RuntimeError), transaction.atomic():
        play(human_game, bob, "pass")
        assert NotificationEvent.objects.filter(move_number=2).exists()
        raise RuntimeError("rolled back")
    assert not NotificationEvent.objects.filter(move_number=2).exists()


def test_start_and_finish_are_recorded_too(human_game, alice, bob):
    assert NotificationEvent.objects.filter(kind=EventKind.STARTED, game=human_game).exists()
    game_services.resign(game_id=human_game.pk, user=bob)
    assert NotificationEvent.objects.filter(kind=EventKind.FINISHED, game=human_game).exists()


def test_no_event_for_the_computer_s_turn(alice, ai_queue, fixed_seed, play):
    game = game_services.create_game(user=alice, opponent={"ai": "beginner"})
    play(game, alice, "g7=5 h7=5")
    assert not NotificationEvent.objects.filter(kind=EventKind.TURN).exists()


def test_an_event_is_decided_once(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    event = NotificationEvent.objects.get(kind=EventKind.TURN)
    assert services.process_event(event_id=event.pk) is True
    assert services.process_event(event_id=event.pk) is False  # redelivered message
    claim = SentNotification.objects.get(kind="turn")
    assert (claim.user, claim.status, claim.move_number) == (bob, Status.PENDING, 1)
    assert queued_sends == [claim.pk]
    event.refresh_from_db()
    assert event.processed_at is not None


def test_the_sweep_takes_over_events_whose_message_was_lost(
    human_game, alice, bob, play, queued_sends
):
    play(human_game, alice, "g7=5 h7=5")  # its message is never delivered (no worker here)
    assert services.sweep_outbox() == 0  # fresh: its message may still come
    later = timezone.now() + services.outbox_age() + timedelta(seconds=1)
    assert services.sweep_outbox(now=later) == 2  # the started event and the turn
    claims = dict(SentNotification.objects.values_list("kind", "user__username"))
    assert claims == {"started": "bob", "turn": "bob"}
    assert services.sweep_outbox(now=later) == 0
    assert not NotificationEvent.objects.filter(processed_at__isnull=True).exists()


def test_the_task_processes_the_event_and_the_sweep_task_is_scheduled(
    human_game, alice, play, queued_sends, settings
):
    play(human_game, alice, "g7=5 h7=5")
    event = NotificationEvent.objects.get(kind=EventKind.TURN)
    assert tasks.process_event.run(event.pk) is True
    assert SentNotification.objects.filter(kind="turn").count() == 1
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"notifications.sweep_outbox", "notifications.purge_old"} <= scheduled


def _broker_down(*args, **kwargs):
    raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


# Real commits (transaction=True): the after-commit callbacks run inside the request, as live.
@pytest.mark.django_db(transaction=True)
def test_a_committed_move_answers_201_when_the_broker_is_down(
    alice, alice_client, fixed_seed, monkeypatch
):
    """Computer turn and email nudge both fail to publish: the move stands, the sweeps catch up."""
    monkeypatch.setattr("celery.app.task.Task.apply_async", _broker_down)
    game = game_services.create_game(user=alice, opponent={"ai": "beginner"})
    response = alice_client.post(
        f"/api/v1/games/{game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert response.status_code == 201, response.content
    game.refresh_from_db()
    assert game.move_number == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_against_a_player_survives_an_unpublishable_nudge(
    alice, bob, alice_client, fixed_seed, monkeypatch, queued_sends
):
    monkeypatch.setattr("celery.app.task.Task.apply_async", _broker_down)
    human_game = game_services.create_game(user=alice, opponent={"username": "bob"})
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert response.status_code == 201, response.content
    later = timezone.now() + services.outbox_age() + timedelta(seconds=1)
    assert services.sweep_outbox(now=later) == 2
    assert SentNotification.objects.filter(kind="turn", move_number=1).count() == 1


def test_requeue_stops_at_the_first_broker_failure(human_game, alice, play, queued_sends,
                                                    monkeypatch):
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    assert n is not None
    monkeypatch.setattr("celery.app.task.Task.apply_async", _broker_down)
    later = timezone.now() + timedelta(minutes=5)
    assert services.requeue_stuck(now=later) == 0  # nothing raised, nothing counted
    n.refresh_from_db()
    assert n.status == Status.PENDING


def test_a_database_error_while_building_keeps_the_send_pending(
    human_game, alice, play, queued_sends, monkeypatch
):
    from django.db import OperationalError

    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)

    def db_down(notification):
        raise OperationalError("connection refused")

    monkeypatch.setattr("games.notifications.emails.build_message", db_down)
    with pytest.raises(OperationalError):
        services.deliver(notification_id=n.pk)
    n.refresh_from_db()
    assert n.status == Status.PENDING  # not stuck in "sending": a retry or the sweep sends it
    monkeypatch.undo()
    assert services.deliver(notification_id=n.pk) is True


def test_old_records_are_purged_after_the_retention_period(
    human_game, alice, bob, play, queued_sends, settings
):
    settings.NOTIFY_RETENTION_DAYS = 30
    play(human_game, alice, "g7=5 h7=5")
    later = timezone.now() + timedelta(minutes=5)
    services.sweep_outbox(now=later)
    sent = SentNotification.objects.get(kind="turn")
    SentNotification.objects.filter(pk=sent.pk).update(status=Status.SENT)
    SentNotification.objects.create(
        key="held:x", kind="turn", status=Status.HELD, user=bob, game=human_game,
        due_at=timezone.now(),
    )
    assert services.purge_old(now=later) == {"claims": 0, "events": 0}
    much_later = timezone.now() + timedelta(days=31)
    # The sent turn email goes with both processed events; what still waits (the started
    # email, still pending, and the held notice) stays however old.
    assert services.purge_old(now=much_later) == {"claims": 1, "events": 2}
    assert set(SentNotification.objects.values_list("kind", "status")) == {
        ("started", Status.PENDING), ("turn", Status.HELD)
    }
    assert tasks.purge_old.run() == {"claims": 0, "events": 0}
    assert Game.objects.filter(pk=human_game.pk).exists()


def test_a_lost_commit_of_the_sending_mark_is_resumed_once(
    human_game, alice, play, queued_sends, monkeypatch, mailoutbox
):
    """The database committed ``sending`` but the connection broke before it said so: the
    retry carries the attempt it wrote, recognises its own mark and sends, exactly once."""
    from django.db import OperationalError

    from games.notifications.models import SentNotification

    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    real_save = SentNotification.save

    def committed_then_lost(self, *args, **kwargs):
        real_save(self, *args, **kwargs)
        # What the worker sees when the commit's answer never arrives.
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(SentNotification, "save", committed_then_lost)
    with pytest.raises(services.SendingMarkUncertain) as raised:
        services.deliver(notification_id=n.pk)
    monkeypatch.undo()
    assert raised.value.attempt == 1
    # The test's savepoint rolled the mark back; the server had committed it.
    SentNotification.objects.filter(pk=n.pk).update(status=Status.SENDING, attempts=1)
    n.refresh_from_db()
    assert (n.status, n.attempts, len(mailoutbox)) == (Status.SENDING, 1, 0)
    # A plain redelivery (no mark) must not send; the retry with its mark sends once.
    assert services.deliver(notification_id=n.pk) is False
    assert services.deliver(notification_id=n.pk, resume_attempt=2) is False
    assert services.deliver(notification_id=n.pk, resume_attempt=1) is True
    assert services.deliver(notification_id=n.pk, resume_attempt=1) is False
    n.refresh_from_db()
    assert n.status == Status.SENT and len(mailoutbox) == 1


def test_a_failed_save_of_the_sending_mark_leaves_the_send_pending(
    human_game, alice, play, queued_sends, monkeypatch, mailoutbox
):
    from django.db import OperationalError

    from games.notifications.models import SentNotification

    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)

    def refused(self, *args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(SentNotification, "save", refused)
    with pytest.raises(services.SendingMarkUncertain):
        services.deliver(notification_id=n.pk)
    monkeypatch.undo()
    n.refresh_from_db()
    assert n.status == Status.PENDING and n.attempts == 0
    assert services.deliver(notification_id=n.pk, resume_attempt=1) is True
    assert len(mailoutbox) == 1

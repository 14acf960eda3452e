"""Celery tasks of the notifications app and the turn clock. They take ids, call a service,
and are idempotent (keys claimed in the database), so late acks and redelivery are safe.
"""

from __future__ import annotations

import logging
from smtplib import SMTPException

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import clocks, dispatch
from games.notifications import services
from games.notifications.push import delivery as push_delivery
from games.notifications.push.delivery import MAX_PUSH_ATTEMPTS
from games.notifications.services import push

log = logging.getLogger(__name__)

DB_ERRORS = (OperationalError, InterfaceError)


@shared_task(
    name=dispatch.PROCESS_EVENT,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
    soft_time_limit=20,
    time_limit=30,
)
def process_event(event_id: int) -> bool:
    """Decide the emails of one outbox event (``sweep_outbox`` does it if this never runs)."""
    return services.process_event(event_id=event_id)


@shared_task(
    name=dispatch.NOTIFY_TURN,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def notify_turn(game_id: int, seat_index: int, move_number: int) -> int | None:
    n = services.notify_turn(game_id=game_id, seat_index=seat_index, move_number=move_number)
    return n.pk if n else None


@shared_task(
    name=dispatch.NOTIFY_STARTED,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def notify_started(game_id: int) -> int:
    return len(services.notify_started(game_id=game_id))


@shared_task(
    name=dispatch.NOTIFY_FINISHED,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def notify_finished(game_id: int) -> int:
    return len(services.notify_finished(game_id=game_id))


# Backoff capped below the broker's visibility timeout: a retry waiting (unacked) longer than
# that would be redelivered meanwhile (harmless, the send is claimed, but wasteful).
@shared_task(
    bind=True,
    name=dispatch.SEND_NOTIFICATION,
    autoretry_for=(SMTPException, OSError, *DB_ERRORS),
    retry_backoff=2,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=6,
)
def send_notification(self, notification_id: int, resume_attempt: int | None = None) -> bool:
    try:
        return services.deliver(notification_id=notification_id, resume_attempt=resume_attempt)
    except services.SendingMarkUncertain as exc:
        # Retry carrying our mark, so that the retry sends if the mark did commit.
        raise self.retry(
            kwargs={"notification_id": notification_id, "resume_attempt": exc.attempt},
            countdown=min(2 ** (self.request.retries + 1), 30),
            exc=exc,
        ) from exc


# A hung push service costs at most PUSH_TIMEOUT_SECONDS per try (the request's timeouts); 429
# and 5xx are retried after the service's Retry-After or the backoff, whichever is longer.
@shared_task(
    bind=True,
    name=dispatch.SEND_PUSH,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=MAX_PUSH_ATTEMPTS,
    soft_time_limit=20,
    time_limit=30,
)
def send_push(self, delivery_id: int) -> str:
    try:
        return push_delivery.deliver_push(delivery_id=delivery_id)
    except push_delivery.PushRetry as exc:
        if self.request.retries >= MAX_PUSH_ATTEMPTS - 1:
            push_delivery.give_up(delivery_id=delivery_id, reason=str(exc))
            return "failed"
        backoff = min(2 ** (self.request.retries + 1), 60)
        countdown = max(backoff, min(exc.retry_after or 0, 300))
        push_delivery.retry_later(delivery_id=delivery_id, seconds=countdown)
        raise self.retry(countdown=countdown, exc=exc) from exc


@shared_task(name=dispatch.SWEEP_NOTIFICATIONS)
def sweep_notifications() -> dict[str, int]:
    """Send due gathered/digest emails and reminders; re-queue sends whose message was lost."""
    return {
        "gathered": services.flush_held(),
        "reminders": services.send_due_reminders(),
        "requeued": services.requeue_stuck(),
        "pushes_requeued": push.requeue_pushes(age=services.send_stale_after()),
    }


@shared_task(name=dispatch.SWEEP_OUTBOX)
def sweep_outbox() -> int:
    """Decide the events whose message never came (Redis lost it, retries ran out)."""
    return services.sweep_outbox()


@shared_task(name=dispatch.PURGE_NOTIFICATIONS, soft_time_limit=30, time_limit=40)
def purge_old() -> dict[str, int]:
    """Delete claims and outbox rows older than ``NOTIFY_RETENTION_DAYS``."""
    return services.purge_old()


@shared_task(name=dispatch.SWEEP_EXPIRED_TURNS)
def sweep_expired_turns() -> int:
    return clocks.sweep_expired_turns()

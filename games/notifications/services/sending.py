"""Sending claimed notifications: one send per pending row, and re-queueing lost sends."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.notifications import emails
from games.notifications.models import SentNotification, Status

MAX_SEND_ATTEMPTS = 8


def requeue_stuck(*, now: datetime | None = None) -> int:
    """Queue again pending sends whose message was lost (e.g. a process died before publish)."""
    now = now or timezone.now()
    stale = SentNotification.objects.filter(
        status=Status.PENDING, created_at__lt=now - timedelta(minutes=2)
    )
    SentNotification.objects.filter(pk__in=stale.filter(attempts__gte=MAX_SEND_ATTEMPTS)).update(
        status=Status.FAILED
    )
    ids = list(stale.filter(attempts__lt=MAX_SEND_ATTEMPTS).values_list("pk", flat=True)[:500])
    from games.notifications import tasks

    for pk in ids:
        tasks.enqueue(tasks.send_notification, pk)
    return len(ids)


def deliver(*, notification_id: int) -> bool:
    """Send one claimed notification; False if it is not pending (sent, sending, held...).

    ``sending`` is committed before talking to SMTP, so a redelivered task never sends again;
    the price is that a worker killed in the middle of an SMTP exchange loses that one email.
    """
    with transaction.atomic():
        n = (
            SentNotification.objects.select_for_update(of=("self",))
            .select_related("user", "game")
            .filter(pk=notification_id)
            .first()
        )
        if n is None or n.status != Status.PENDING:
            return False
        n.status = Status.SENDING
        n.attempts += 1
        n.save(update_fields=["status", "attempts"])
    try:
        emails.build_message(n).send()
    except Exception as exc:
        failed = not isinstance(exc, OSError)  # SMTPException is an OSError: retried
        SentNotification.objects.filter(pk=n.pk).update(
            status=Status.FAILED if failed else Status.PENDING, last_error=repr(exc)[:300]
        )
        raise
    SentNotification.objects.filter(pk=n.pk).update(status=Status.SENT, sent_at=timezone.now())
    return True

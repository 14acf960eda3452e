"""Purge of old notification records: the claims and outbox rows are kept for
``NOTIFY_RETENTION_DAYS`` (long past any redelivery, gather window, digest or nudge interval)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.notifications.models import NotificationEvent, SentNotification, Status

# Rows still waiting for something (held, pending) are never purged, however old.
FINAL = (Status.SENT, Status.MERGED, Status.DROPPED, Status.FAILED, Status.SENDING)


def retention() -> timedelta:
    return timedelta(days=int(getattr(settings, "NOTIFY_RETENTION_DAYS", 30)))


PURGE_BATCH = 2000


def _delete_in_batches(queryset) -> int:
    """Short transactions (no long lock on a big table); the task's time limit may stop it
    midway, the next run goes on."""
    total = 0
    while True:
        ids = list(queryset.values_list("pk", flat=True)[:PURGE_BATCH])
        if not ids:
            return total
        total += queryset.model.objects.filter(pk__in=ids).delete()[0]


def purge_old(*, now: datetime | None = None) -> dict[str, int]:
    cutoff = (now or timezone.now()) - retention()
    return {
        "claims": _delete_in_batches(
            SentNotification.objects.filter(created_at__lt=cutoff, status__in=FINAL)
        ),
        "events": _delete_in_batches(NotificationEvent.objects.filter(processed_at__lt=cutoff)),
    }

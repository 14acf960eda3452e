"""Retention of the ``db`` backend's events (the ``redis`` backend trims on every XADD)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from live.models import LiveEvent


def purge_events(now=None) -> int:
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.LIVE_RETENTION_SECONDS)
    deleted, _ = LiveEvent.objects.filter(created_at__lt=cutoff).delete()
    return deleted


@shared_task(name="live.purge_events")
def purge_events_task() -> int:
    return purge_events()

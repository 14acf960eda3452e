"""Celery beat task: today's and tomorrow's puzzles (UTC) exist ahead of time."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import dispatch
from games.crazy10s.puzzles import services


@shared_task(
    name=dispatch.ENSURE_DAILY_PUZZLES,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def ensure_daily_puzzles() -> list[str]:
    """Idempotent: creates only the missing ones; returns the dates it created."""
    return [day.isoformat() for day in services.ensure_daily_puzzles()]

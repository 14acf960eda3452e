"""The outbox of game events: decide each event's emails exactly once, and sweep up events
whose Celery message never came (lost by Redis, or retries used up during a database outage).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Seat
from games.notifications.models import EventKind, NotificationEvent
from games.notifications.services import push
from games.notifications.services.events import notify_finished, notify_started, notify_turn

log = logging.getLogger(__name__)

SWEEP_BATCH = 200


def outbox_age() -> timedelta:
    """How old a pending event must be before the sweep takes it over from its message."""
    return timedelta(seconds=int(getattr(settings, "NOTIFY_OUTBOX_AGE_SECONDS", 60)))


def _people(game_id: int) -> list[int]:
    return [
        uid for uid in Seat.objects.filter(game_id=game_id, user__isnull=False)
        .values_list("user_id", flat=True) if uid is not None
    ]


def process_event(*, event_id: int, now: datetime | None = None) -> bool:
    """Decide the emails of one event; False if it was processed already (or is being so).

    The decision (``SentNotification`` claims) and ``processed_at`` commit together, so an event
    is decided once; SKIP LOCKED lets the task and the sweep race without waiting or doubling.
    """
    now = now or timezone.now()
    with transaction.atomic():
        event = (
            NotificationEvent.objects.select_for_update(skip_locked=True)
            .filter(pk=event_id, processed_at__isnull=True)
            .first()
        )
        if event is None:
            return False
        if event.kind == EventKind.TURN:
            if event.seat_index is not None:  # a turn's event names its seat
                notify_turn(
                    game_id=event.game_id,
                    seat_index=event.seat_index,
                    move_number=event.move_number,
                    now=now,
                )
            # Whoever moved (on any device) no longer needs that game's notification.
            push.clear_shown(game_id=event.game_id, move_number=event.move_number,
                             user_ids=_people(event.game_id))
        elif event.kind == EventKind.STARTED:
            notify_started(game_id=event.game_id, now=now)
        elif event.kind == EventKind.FINISHED:
            notify_finished(game_id=event.game_id, now=now)
            push.finished(game_id=event.game_id, now=now)
        event.processed_at = now
        event.attempts += 1
        event.save(update_fields=["processed_at", "attempts"])
    return True


def sweep_outbox(*, now: datetime | None = None) -> int:
    """Process the events still pending ``outbox_age()`` after they were recorded."""
    now = now or timezone.now()
    ids = list(
        NotificationEvent.objects.filter(
            processed_at__isnull=True, created_at__lt=now - outbox_age()
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    done = 0
    for pk in ids:
        try:
            done += process_event(event_id=pk)
        except Exception as exc:
            # One bad event must not block the others; it stays pending for the next sweep.
            log.exception("could not process notification event %s", pk)
            NotificationEvent.objects.filter(pk=pk).update(last_error=repr(exc)[:300])
    if done:
        log.info("outbox sweep processed %s event(s) left by their message", done)
    return done

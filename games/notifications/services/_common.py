"""What every notification decision shares: the configurable windows, "has the player looked
at the game lately?", and ``_claim``, which records a notification under its unique key (at
most one per key) and queues the send once the transaction commits.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import dispatch
from games.models import Game, Seat
from games.notifications.models import SentNotification, Status


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def seen_window() -> timedelta:
    return timedelta(seconds=_setting("NOTIFY_SEEN_SECONDS", 120))


def gather_window() -> timedelta:
    return timedelta(minutes=_setting("NOTIFY_GATHER_MINUTES", 5))


def digest_interval() -> timedelta:
    return timedelta(minutes=_setting("NOTIFY_DIGEST_MINUTES", 60))


def nudge_interval() -> timedelta:
    return timedelta(hours=_setting("NOTIFY_NUDGE_HOURS", 24))


def reminder_lead(turn_hours: int) -> timedelta:
    """Time left when the reminder goes: a fifth of the turn or one hour, whichever comes later."""
    return min(timedelta(hours=turn_hours) / 5, timedelta(hours=1))


def reminder_at(game: Game) -> datetime | None:
    if game.turn_deadline is None:
        return None
    return game.turn_deadline - reminder_lead(game.turn_hours)


def seen_recently(seat: Seat, now: datetime) -> bool:
    return seat.last_seen_at is not None and now - seat.last_seen_at < seen_window()


def _enqueue_send(notification_id: int) -> None:
    transaction.on_commit(lambda: dispatch.enqueue_send(notification_id))


def _claim(key: str, **fields) -> SentNotification | None:
    """Create the record for ``key`` (None if it exists); queue the send if it is pending."""
    try:
        with transaction.atomic():
            n = SentNotification.objects.create(key=key, **fields)
    except IntegrityError:
        return None
    if n.status == Status.PENDING:
        _enqueue_send(n.pk)
    return n


def _lock_user(user_id: int):
    # NO KEY: serialises the notification decisions per user without blocking the rows that
    # merely reference the user (a move, a seat update, a notice) in a web request meanwhile.
    return get_user_model().objects.select_for_update(no_key=True).get(pk=user_id)

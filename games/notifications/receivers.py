"""Receiver of ``games.signals.recording`` (sent inside the write's transaction): write the
event to the outbox and nudge a worker once the transaction commits.

The outbox row commits with the move, so the event is never lost; the Celery message is only a
nudge (publishing after commit may fail, or Redis may lose it) and ``sweep_outbox`` processes
whatever is still pending after ``NOTIFY_OUTBOX_AGE_SECONDS``.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from games import dispatch, signals
from games.models import Seat
from games.notifications.models import EventKind, Kind, NotificationEvent
from games.notifications.services._common import _claim

log = logging.getLogger(__name__)


def _event_fields(signal, game_id: int, kwargs: dict) -> dict | None:
    if signal is signals.turn_started:
        seat_index, move_number = kwargs["seat_index"], kwargs["move_number"]
        if move_number == 0:
            return None  # the first turn is announced by the "game started" email
        seat = Seat.objects.filter(game_id=game_id, index=seat_index).only("user_id").first()
        if seat is None or seat.user_id is None:
            return None  # the computer's turn: nobody to email
        return {
            "key": f"turn:{game_id}:{move_number}:{seat_index}",
            "kind": EventKind.TURN,
            "seat_index": seat_index,
            "move_number": move_number,
            "recipient_id": seat.user_id,
        }
    if signal is signals.game_started:
        return {"key": f"started:{game_id}", "kind": EventKind.STARTED}
    if signal is signals.game_finished:
        return {"key": f"finished:{game_id}", "kind": EventKind.FINISHED}
    return None


def on_recording(sender, *, event, game_id: int, **kwargs) -> None:
    fields = _event_fields(event, game_id, kwargs)
    if fields is None:
        return
    key = fields.pop("key")
    event, created = NotificationEvent.objects.get_or_create(
        key=key, defaults={"game_id": game_id, **fields}
    )
    if created:
        transaction.on_commit(lambda: publish_event(event.pk))


def publish_event(event_id: int) -> None:
    dispatch.enqueue_event(event_id)


def on_invitation(sender, *, table_id: int, code: str, user_id: int, host_id: int, **kw) -> None:
    """Claim the invitation email inside the table's transaction (once per table and person);
    the send is queued after the commit and ``requeue_stuck`` re-sends a lost one."""
    user = get_user_model().objects.filter(pk=user_id).first()
    host = get_user_model().objects.filter(pk=host_id).first()
    if user is None or host is None or not user.email or user.turn_emails == "off":
        return
    _claim(
        f"invite:{table_id}:{user_id}",
        kind=Kind.INVITE,
        user=user,
        payload={
            "code": code,
            "host": host.public_name,
            "url": f"{settings.SITE_BASE_URL}/tables/{code}",
        },
    )

"""Held turn notices go out together: one gathered email, or one digest of every game waiting
for the user."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game, Seat
from games.notifications.models import Kind, SentNotification, Status
from games.notifications.services._common import _claim, _lock_user, seen_recently


def _games_waiting_for(user_id: int) -> list[Game]:
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user_id=user_id,
            seats__index=F("current_seat"),
        ).order_by("turn_deadline", "pk")
    )


def _still_waiting(notice: SentNotification, now: datetime) -> bool:
    game = notice.game
    assert game is not None  # a held notice is a turn's: it names its game
    if game.status != Game.Status.ACTIVE or game.move_number != notice.move_number:
        return False
    if game.current_seat is None:
        return False
    seat = Seat.objects.filter(game=game, index=game.current_seat).first()
    return seat is not None and seat.user_id == notice.user_id and not seen_recently(seat, now)


def flush_user(*, user_id: int, now: datetime) -> SentNotification | None:
    """Send this user's due held turn notices as one gathered (or digest) email."""
    with transaction.atomic():
        user = _lock_user(user_id)
        notices = list(
            SentNotification.objects.select_for_update(of=("self",))
            .filter(user=user, status=Status.HELD, due_at__lte=now)
            .select_related("game")
            .order_by("pk")
        )
        if not notices:
            return None
        waiting = [n for n in notices if _still_waiting(n, now)]
        ids = [n.pk for n in notices]
        if user.turn_emails == "off" or not user.email or not waiting:
            SentNotification.objects.filter(pk__in=ids).update(status=Status.DROPPED)
            return None
        if user.turn_emails == "digest":
            kind = Kind.DIGEST
            games = [g.pk for g in _games_waiting_for(user.pk)]
        else:
            kind = Kind.GATHERED
            games = sorted({n.game_id for n in waiting if n.game_id is not None})
        SentNotification.objects.filter(pk__in=[n.pk for n in waiting]).update(
            status=Status.MERGED
        )
        SentNotification.objects.filter(pk__in=ids, status=Status.HELD).update(
            status=Status.DROPPED
        )
        return _claim(
            f"{kind}:{user.pk}:{ids[0]}",
            kind=kind,
            user=user,
            payload={"games": games},
            created_at=now,
        )


def flush_held(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    user_ids = set(
        SentNotification.objects.filter(status=Status.HELD, due_at__lte=now).values_list(
            "user_id", flat=True
        )
    )
    return sum(1 for uid in user_ids if flush_user(user_id=uid, now=now) is not None)

"""Emails about game events: your turn (sent, held for gathering/digest, or nothing), the game
started, the game finished."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.notifications.models import Kind, SentNotification, Status
from games.notifications.services import push
from games.notifications.services._common import (
    _claim,
    _lock_user,
    digest_interval,
    gather_window,
    seen_recently,
    seen_window,
)


def notify_turn(
    *, game_id: int, seat_index: int, move_number: int, now: datetime | None = None
) -> SentNotification | None:
    """It became ``seat_index``'s turn after ``move_number`` moves: email, hold, or nothing."""
    now = now or timezone.now()
    if move_number == 0:
        return None  # the first turn is announced by the "game started" email
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if (
            game is None
            or game.status != Game.Status.ACTIVE
            or game.move_number != move_number
            or game.current_seat != seat_index
        ):
            return None  # the turn is already over: nothing to announce
        if game.turn_seconds:
            return None  # a table's 30-second turn: the player is at the table or away
        seat = Seat.objects.get(game=game, index=seat_index)
        if seat.user_id is None or seen_recently(seat, now):
            return None
        user = _lock_user(seat.user_id)  # serialises the gathering decision per user
        pushed = push.turn(game=game, seat=seat, move_number=move_number)
        if user.turn_emails == "off" or not user.email:
            return None
        key = f"turn:{game_id}:{move_number}:{user.pk}"
        common = {"kind": Kind.TURN, "user": user, "game": game, "move_number": move_number}
        if user.turn_emails == "digest":
            last = (
                SentNotification.objects.filter(user=user, kind=Kind.DIGEST)
                .order_by("-created_at")
                .first()
            )
            due = max(now, last.created_at + digest_interval()) if last else now
            return _claim(key, status=Status.HELD, due_at=due, created_at=now, **common)
        if pushed and not push.settings_of(user.pk).email_too and push.email_delay():
            # The push reached a device: the email only if the turn still waits later (the
            # gathering sweep drops it when the game moved on, as for any held notice).
            return _claim(key, status=Status.HELD, due_at=now + push.email_delay(),
                          created_at=now, **common)
        recent = (
            SentNotification.objects.filter(
                user=user,
                kind__in=(Kind.TURN, Kind.GATHERED),
                status__in=(Status.PENDING, Status.SENDING, Status.SENT),
                created_at__gt=now - gather_window(),
            )
            .order_by("-created_at")
            .first()
        )
        if recent is not None:
            due = recent.created_at + gather_window()
            return _claim(key, status=Status.HELD, due_at=due, created_at=now, **common)
        return _claim(key, status=Status.PENDING, created_at=now, **common)


def _started_recipients(game: Game, now: datetime) -> list[Seat]:
    seats = list(game.seats.select_related("user"))
    # A game that starts right after its creation was started by its creator (seat 0): they
    # know. A random pairing starts later, when the waiting creator does want to hear of it.
    created_just_now = game.started_at and game.started_at - game.created_at < seen_window()
    return [
        s
        for s in seats
        if s.user is not None
        and s.user.email
        and s.user.turn_emails != "off"
        and not (s.index == 0 and created_just_now)
        and not seen_recently(s, now)
    ]


def notify_started(*, game_id: int, now: datetime | None = None) -> list[SentNotification]:
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.started_at is None:
            return []
        claimed = []
        for seat in _started_recipients(game, now):
            n = _claim(
                f"started:{game_id}:{seat.user_id}",
                kind=Kind.STARTED,
                user=seat.user,
                game=game,
                move_number=0,
                created_at=now,
            )
            if n:
                claimed.append(n)
        return claimed


def notify_finished(*, game_id: int, now: datetime | None = None) -> list[SentNotification]:
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.FINISHED:
            return []  # aborted games have no result to announce
        claimed = []
        for seat in game.seats.select_related("user"):
            user = seat.user
            if user is None or not user.email or not user.result_emails:
                continue
            # At a table only those who left hear of the result by email; the others saw it.
            if (game.turn_seconds and not seat.left) or (
                not game.turn_seconds and seen_recently(seat, now)
            ):
                continue
            n = _claim(
                f"finished:{game_id}:{user.pk}",
                kind=Kind.FINISHED,
                user=user,
                game=game,
                move_number=game.move_number,
                created_at=now,
            )
            if n:
                claimed.append(n)
        return claimed

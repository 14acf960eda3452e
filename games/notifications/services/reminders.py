"""Reminders before a turn's deadline, and the nudge a waiting player sends the opponent."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import errors
from games.correspondence.selectors import paused_by_vacation
from games.models import TURN_HOURS_CHOICES, Game, Seat
from games.notifications.models import Kind, PushKind, SentNotification, Status
from games.notifications.services import push
from games.notifications.services._common import (
    _claim,
    nudge_interval,
    reminder_lead,
    seen_recently,
)
from live import game_events as live_events
from social import blocks

if TYPE_CHECKING:
    from accounts.models import User


def send_due_reminders(*, now: datetime | None = None) -> int:
    """Claim one reminder per (game, turn) whose reminder time has passed."""
    now = now or timezone.now()
    count = 0
    for hours in TURN_HOURS_CHOICES:
        games = list(
            Game.objects.filter(
                status=Game.Status.ACTIVE,
                turn_hours=hours,
                turn_seconds__isnull=True,  # a table's short turns get no reminder
                turn_deadline__gt=now,
                turn_deadline__lte=now + reminder_lead(hours),
            ).exclude(paused_by_vacation())  # on vacation: no reminder (the clock stands)
        )
        for game in games:
            if game.current_seat is None:
                continue
            seat = (
                Seat.objects.filter(game=game, index=game.current_seat)
                .select_related("user")
                .first()
            )
            if seat is None or seat.user is None or seen_recently(seat, now):
                continue
            key = f"reminder:{game.pk}:{game.move_number}:{seat.user_id}"
            if SentNotification.objects.filter(key=key).exists():
                continue
            wants_email = bool(seat.user.reminder_emails and seat.user.email)
            with transaction.atomic():
                pushed = push.claim(event=key, kind=PushKind.REMINDER, user_id=seat.user.pk,
                                    game_id=game.pk, move_number=game.move_number)
                if not wants_email and not pushed:
                    continue
                # Pushed but not emailed: the claim is still written (dropped), so that the
                # reminder is decided once.
                n = _claim(
                    key,
                    kind=Kind.REMINDER,
                    status=Status.PENDING if wants_email else Status.DROPPED,
                    user=seat.user,
                    game=game,
                    move_number=game.move_number,
                    created_at=now,
                )
            count += n is not None and wants_email
    return count


def nudge(*, game_id: int, user: User, now: datetime | None = None) -> SentNotification:
    """The waiting player reminds the opponent (once per ``nudge_interval`` per game)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if game is None:
            raise errors.game_not_found()
        seats = list(game.seats.select_related("user"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise errors.not_a_player()
        # A game waiting for a random opponent has no opponent seat yet: check status first.
        opponent = next((s for s in seats if s.index != mine.index), None)
        if (
            game.status != Game.Status.ACTIVE
            or opponent is None
            or game.current_seat != opponent.index
            or opponent.user is None
        ):
            raise ApiError(
                "not_opponents_turn",
                _("You can only nudge a human opponent whose turn it is."),
                status=409,
            )
        last = (
            SentNotification.objects.filter(kind=Kind.NUDGE, game=game, sender=user)
            .order_by("-created_at")
            .first()
        )
        if last is not None and now - last.created_at < nudge_interval():
            retry_after = int((last.created_at + nudge_interval() - now).total_seconds()) + 1
            raise ApiError(
                "nudge_too_soon",
                _("You already nudged your opponent in this game recently."),
                status=429,
                details={"retry_after": retry_after},
            )
        target = opponent.user
        # A nudge from a player the opponent blocked is recorded (the sender cannot tell) but
        # never delivered: no email, and no live event (live.game_events checks the same).
        deliverable = (
            target.reminder_emails
            and target.email
            and not seen_recently(opponent, now)
            and not blocks.blocks(target.pk, user.pk)
        )
        n = _claim(
            f"nudge:{game.pk}:{user.pk}:{int(now.timestamp())}",
            kind=Kind.NUDGE,
            status=Status.PENDING if deliverable else Status.DROPPED,
            user=target,
            sender=user,
            game=game,
            move_number=game.move_number,
            created_at=now,
        )
        if n is not None and not seen_recently(opponent, now) and not blocks.blocks(
            target.pk, user.pk
        ):
            push.claim(event=f"nudge:{game.pk}:{user.pk}:{int(now.timestamp())}",
                       kind=PushKind.NUDGE, user_id=target.pk, game_id=game.pk,
                       move_number=game.move_number, facts={"sender_seat": mine.index})
        if n is not None:
            live_events.nudge_on_commit(
                game_id=game.pk, move_number=game.move_number, recipient_id=target.pk,
                sender_id=user.pk,
            )
        if n is None:  # the same second twice: the first one wins
            raise ApiError(
                "nudge_too_soon",
                _("You already nudged your opponent in this game recently."),
                status=429,
                details={"retry_after": int(nudge_interval().total_seconds())},
            )
        return n

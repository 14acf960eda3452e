"""Every vacation write: start, end (by the player, a moderator, or because it ran out).

While a vacation runs, the clocks skip the player's correspondence turns
(``selectors.paused_by_vacation``: the deadline sweep, its re-check under the game's row lock,
the reminders). Ending it moves each such turn's deadline on by the time the turn stood still
(from the later of the turn's start and the vacation's start, to the vacation's end), so the
turn resumes with the time it had left. Lock order: the player's allowance row, then the
vacation, then each game row (games services never lock these).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games.correspondence import rules
from games.correspondence.models import Vacation, VacationAllowance
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)


def _allowance(user: User, now: datetime) -> VacationAllowance:
    """The player's allowance row, locked and accrued to ``now``."""
    VacationAllowance.objects.get_or_create(
        user=user,
        defaults={
            "balance_seconds": rules.STARTING_DAYS * rules.DAY_SECONDS,
            "accrued_at": user.date_joined,
        },
    )
    allowance = VacationAllowance.objects.select_for_update().get(user=user)
    allowance.balance_seconds = rules.accrued(allowance.balance_seconds, allowance.accrued_at, now)
    allowance.accrued_at = max(now, allowance.accrued_at)
    return allowance


def start(*, user: User, days: int, now: datetime | None = None) -> Vacation:
    """Start a vacation of ``days`` days now; the days are taken from the allowance (the part
    not used comes back if it ends early)."""
    now = now or timezone.now()
    if not 1 <= days <= rules.MAXIMUM_DAYS:
        raise ApiError(
            "invalid_vacation_days",
            _("A vacation lasts from 1 to %(most)d days.") % {"most": rules.MAXIMUM_DAYS},
            details={"maximum_days": rules.MAXIMUM_DAYS},
        )
    with transaction.atomic():
        allowance = _allowance(user, now)
        if Vacation.objects.filter(user=user, ended_at__isnull=True).exists():
            raise ApiError(
                "already_on_vacation", _("You are already on vacation."), status=409
            )
        wanted = days * rules.DAY_SECONDS
        if wanted > allowance.balance_seconds:
            available = rules.whole_days(allowance.balance_seconds)
            raise ApiError(
                "vacation_too_long",
                _("You have %(available)d vacation days; you asked for %(days)d.")
                % {"available": available, "days": days},
                status=409,
                details={"available_days": available, "requested_days": days},
            )
        allowance.balance_seconds -= wanted
        allowance.save(update_fields=["balance_seconds", "accrued_at"])
        return Vacation.objects.create(
            user=user, started_at=now, ends_at=now + timedelta(days=days)
        )


def end(*, user: User, now: datetime | None = None, by: User | None = None) -> Vacation:
    """End the player's running vacation now (or at its end time, if that has passed)."""
    now = now or timezone.now()
    with transaction.atomic():
        allowance = _allowance(user, now)
        vacation = (
            Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
        )
        if vacation is None:
            raise ApiError("not_on_vacation", _("You are not on vacation."), status=409)
        _end(vacation, allowance, now, by)
        return vacation


def end_expired(*, now: datetime | None = None) -> int:
    """End every vacation whose time is up (the beat task; idempotent)."""
    now = now or timezone.now()
    due = list(
        Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now).values_list(
            "user_id", flat=True
        )
    )
    ended = 0
    for user_id in due:
        try:
            with transaction.atomic():
                user = get_user_model().objects.get(pk=user_id)
                allowance = _allowance(user, now)
                vacation = (
                    Vacation.objects.select_for_update()
                    .filter(user_id=user_id, ended_at__isnull=True, ends_at__lte=now)
                    .first()
                )
                if vacation is None:
                    continue  # ended meanwhile
                _end(vacation, allowance, now, None)
                ended += 1
        except Exception:  # one broken vacation must not keep every other player's paused
            log.exception("ending the vacation of user %s failed", user_id)
    return ended


def _end(vacation: Vacation, allowance: VacationAllowance, now: datetime, by: User | None) -> None:
    ended_at = min(now, vacation.ends_at)
    unused = int((vacation.ends_at - ended_at).total_seconds())
    allowance.balance_seconds = min(rules.MAXIMUM_SECONDS, allowance.balance_seconds + unused)
    allowance.save(update_fields=["balance_seconds", "accrued_at"])
    vacation.ended_at = ended_at
    vacation.ended_by = by
    vacation.save(update_fields=["ended_at", "ended_by"])
    _resume_turns(vacation)


def _resume_turns(vacation: Vacation) -> None:
    """Move on the deadline of every correspondence turn of the player by the time it stood
    still during the vacation."""
    assert vacation.ended_at is not None
    theirs = Seat.objects.filter(
        game=OuterRef("pk"), index=OuterRef("current_seat"), user_id=vacation.user_id
    )
    game_ids = list(
        Game.objects.filter(
            Exists(theirs), status=Game.Status.ACTIVE, turn_seconds__isnull=True,
            turn_deadline__isnull=False,
        ).values_list("pk", flat=True)
    )
    for game_id in game_ids:
        game = (
            Game.objects.select_for_update(no_key=True)
            .filter(Exists(theirs), pk=game_id, status=Game.Status.ACTIVE)
            .first()
        )
        if game is None or game.turn_deadline is None:
            continue  # moved on meanwhile
        paused_from = max(vacation.started_at, game.turn_started_at or vacation.started_at)
        stood_still = max(timedelta(0), vacation.ended_at - paused_from)
        game.turn_deadline += stood_still
        game.save(update_fields=["turn_deadline"])

"""Reads of vacations: who is on vacation, and the expression the clocks use to skip them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from games.correspondence import rules
from games.correspondence.models import Vacation, VacationAllowance
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User


def paused_by_vacation() -> Q:
    """For a ``Game`` queryset: a correspondence turn whose player is on vacation. A vacation
    runs until it is ended (``ended_at``), even past ``ends_at``: the clock stays paused until
    the deadline has been moved on. Tables (``turn_seconds``) are never paused."""
    on_vacation = Vacation.objects.filter(
        ended_at__isnull=True,
        user__seats__game=OuterRef("pk"),
        user__seats__index=OuterRef("current_seat"),
    )
    return Q(turn_seconds__isnull=True) & Q(Exists(on_vacation))


def is_paused(*, game_id: int) -> bool:
    return Game.objects.filter(paused_by_vacation(), pk=game_id).exists()


def vacation_until_annotation() -> Subquery:
    """For a ``Seat`` queryset: the end of its player's running vacation (NULL: none)."""
    return Subquery(
        Vacation.objects.filter(user=OuterRef("user_id"), ended_at__isnull=True).values(
            "ends_at"
        )[:1]
    )


def vacations_of(seats: Iterable[Seat]) -> dict[int, datetime]:
    """Seat index → the end of its player's running vacation. Seats read with
    ``vacation_until_annotation`` (the games' prefetch) need no query; others one query."""
    seats = list(seats)
    if all("vacation_until" in seat.__dict__ for seat in seats):
        ends = {s.index: s.__dict__["vacation_until"] for s in seats}
        return {index: until for index, until in ends.items() if until is not None}
    users = {s.user_id: s.index for s in seats if s.user_id is not None}
    if not users:
        return {}
    running = Vacation.objects.filter(user_id__in=users, ended_at__isnull=True)
    ends = dict(running.values_list("user_id", "ends_at"))
    return {index: ends[user_id] for user_id, index in users.items() if user_id in ends}


def running(user: User) -> Vacation | None:
    return Vacation.objects.filter(user=user, ended_at__isnull=True).first()


def balance_seconds(user: User, now: datetime) -> int:
    allowance = VacationAllowance.objects.filter(user=user).first()
    if allowance is None:
        return rules.accrued(rules.STARTING_DAYS * rules.DAY_SECONDS, user.date_joined, now)
    return rules.accrued(allowance.balance_seconds, allowance.accrued_at, now)


def state(user: User, now: datetime | None = None) -> dict[str, Any]:
    """What the settings page and ``GET me/vacation`` show."""
    now = now or timezone.now()
    current = running(user)
    seconds = balance_seconds(user, now)
    return {
        "available_days": rules.whole_days(seconds),
        "available_seconds": seconds,
        "maximum_days": rules.MAXIMUM_DAYS,
        "days_per_week": rules.DAYS_PER_WEEK,
        "vacation": None if current is None else {
            "started_at": current.started_at, "ends_at": current.ends_at,
        },
    }

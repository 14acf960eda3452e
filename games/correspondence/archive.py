"""The archive: a player's finished games, filtered by opponent, kind, result and month, paged
(the page's games and their seats in a fixed number of queries, whatever the count)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, QuerySet

from config.errors import ApiError
from games import selectors
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

PAGE_SIZE = 20
RESULTS = ("win", "loss", "draw", "none")
MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def finished_games(
    *, user: User, opponent: str = "", kind: str = "", result: str = "", month: str = ""
) -> QuerySet[Game]:
    """The user's finished (and aborted) games, newest first, filtered; a bad filter is a
    ``400 invalid_filter`` naming it."""
    games = selectors.player_games(user=user, status="finished")
    if opponent:
        games = games.filter(Exists(
            Seat.objects.filter(game=OuterRef("pk"), user__username__iexact=opponent)
            .exclude(user=user)
        ))
    if kind:
        games = games.filter(kind=kind)
    if result:
        if result not in RESULTS:
            raise _invalid("result", f"one of {', '.join(RESULTS)}")
        games = games.filter(Exists(
            Seat.objects.filter(game=OuterRef("pk"), user=user, result=result)
        ))
    if month:
        found = MONTH.match(month)
        if found is None:
            raise _invalid("month", "YYYY-MM")
        games = games.filter(
            finished_at__year=int(found.group(1)), finished_at__month=int(found.group(2))
        )
    return games


def _invalid(field: str, expected: str) -> ApiError:
    from django.utils.translation import gettext as _

    return ApiError(
        "invalid_filter", _("This filter is not valid: %(field)s.") % {"field": field},
        details={field: [expected]},
    )


def page(*, user: User, number: int = 1, **filters: str) -> tuple[Page, list[dict[str, Any]]]:
    """One page of the archive and its list entries (``selectors.game_summary``)."""
    paginator = Paginator(finished_games(user=user, **filters), PAGE_SIZE)
    current = paginator.get_page(number)
    return current, [selectors.game_summary(game=g, user=user) for g in current.object_list]

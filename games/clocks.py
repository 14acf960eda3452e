"""Turn clocks: the deadline sweep that plays overdue turns as timeout passes.

The database column ``Game.turn_deadline`` is the only source of truth (no countdown tasks:
Redis would redeliver a task waiting longer than the visibility timeout). The sweep may run in
several processes at once: each game is claimed with ``SELECT ... FOR UPDATE SKIP LOCKED``
and played through ``services.play_timeout``, which checks the move number under the same row
lock. A last-second move and the timeout therefore never both happen: whoever locks the row
first plays, the other finds the move number changed and does nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import services
from games.correspondence.selectors import paused_by_vacation
from games.models import Game

log = logging.getLogger(__name__)

SWEEP_BATCH = 200


def expired_turns(*, now: datetime, limit: int = SWEEP_BATCH) -> list[tuple[int, int]]:
    """(game id, move number) of active games whose turn deadline has passed (index scan)."""
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now)
        .exclude(paused_by_vacation())  # the player to move is on vacation: the clock stands
        .order_by("turn_deadline")
        .values_list("pk", "move_number")[:limit]
    )


def time_out(*, game_id: int, move_number: int, now: datetime | None = None) -> bool:
    """Play the timeout of one turn unless another process holds the game or it moved on."""
    now = now or timezone.now()
    with transaction.atomic():
        # NO KEY UPDATE: a row being inserted elsewhere that references this game holds a KEY
        # SHARE lock on it, which must not make the sweep pass the game over.
        claimed = (
            Game.objects.select_for_update(skip_locked=True, no_key=True)
            .filter(pk=game_id, move_number=move_number, status=Game.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if claimed is None:
            return False  # moved on, finished, or being handled by someone else right now
        if Game.objects.filter(paused_by_vacation(), pk=game_id).exists():
            return False  # a vacation began since the game was listed (checked under the lock)
        move = services.play_timeout(game_id=game_id, expected_move_number=move_number, now=now)
        return move is not None


def sweep_expired_turns(*, now: datetime | None = None) -> int:
    """Play every overdue turn as a timeout pass; returns how many were played."""
    now = now or timezone.now()
    played = 0
    for game_id, move_number in expired_turns(now=now):
        try:
            played += time_out(game_id=game_id, move_number=move_number, now=now)
        except Exception:  # one broken game must not stop the clock of all the others
            log.exception("timeout of game %s at move %s failed", game_id, move_number)
    if played:
        log.info("played %s timeout(s)", played)
    return played

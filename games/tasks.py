"""Celery tasks of the games app: they take ids and call a service.

``play_ai_turn`` is idempotent (the service checks the move number under the row lock), so it is
safe to acknowledge late, to retry, and to queue twice (the sweep may re-queue a turn whose
message is merely slow).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import F
from django.utils import timezone

from games import services
from games.models import Game

log = logging.getLogger(__name__)

# A computer turn pending longer than this is considered lost and queued again.
AI_TURN_STALE_AFTER = timedelta(seconds=30)


def enqueue_ai_turn(game_id: int, move_number: int) -> None:
    """Queue the computer's turn (on the queue named by ``GAMES_AI_QUEUE``, default Celery's)."""
    queue = getattr(settings, "GAMES_AI_QUEUE", None)
    options = {"queue": queue} if queue else {}
    play_ai_turn.apply_async((game_id, move_number), **options)


@shared_task(
    name="games.play_ai_turn",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_ai_turn(game_id: int, expected_move_number: int) -> int | None:
    """Play the computer's move; returns the new move number, or None if nothing was due."""
    move = services.play_ai_turn(game_id=game_id, expected_move_number=expected_move_number)
    return move.number if move is not None else None


@shared_task(name="games.sweep_ai_turns")
def sweep_ai_turns() -> int:
    """Re-queue computer turns pending for longer than ``AI_TURN_STALE_AFTER`` (lost messages)."""
    cutoff = timezone.now() - AI_TURN_STALE_AFTER
    pending = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            turn_started_at__lte=cutoff,
            seats__index=F("current_seat"),
            seats__ai_level__isnull=False,
        ).values_list("pk", "move_number")
    )
    for game_id, move_number in pending:
        log.info("re-queueing computer turn of game %s at move %s", game_id, move_number)
        enqueue_ai_turn(game_id, move_number)
    return len(pending)

"""Celery tasks of the social app: ids in, a service call; idempotent (see services.ratings)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import dispatch
from social.services import ratings


@shared_task(
    name=dispatch.RATE_GAME,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def rate_game(game_id: int) -> bool:
    return ratings.rate_game(game_id=game_id)


@shared_task(name=dispatch.SWEEP_RATINGS, acks_late=True)
def sweep_ratings() -> int:
    return len(ratings.sweep())

"""``Idempotency-Key`` for POSTs that create something (a game): the first response is stored
in the creating transaction; a retry with the same key and body gets it back and creates
nothing; the same key with another body is refused (422 ``idempotency_key_mismatch``).

Moves keep their own records in ``moves`` (a key there is bound to its game).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import errors
from games.models import Game, IdempotencyRecord

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Receipt:
    status: int
    body: dict[str, Any]
    replayed: bool = False


def fingerprint(operation: str, payload: dict[str, Any]) -> str:
    """sha256 of the request's canonical JSON, with the operation so that a key used for a
    move can never replay as a game creation (or the other way round)."""
    canonical = json.dumps(
        {"op": operation, "request": payload},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        default=str,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _stored(user: User, key: str, print_: str) -> Receipt | None:
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        return None
    if record.request_fingerprint != print_:
        raise errors.idempotency_key_mismatch()
    return Receipt(record.response_status, record.response_body, replayed=True)


def run_once(
    *,
    user: User,
    key: str | None,
    operation: str,
    payload: dict[str, Any],
    create: Callable[[], tuple[Game, int, dict[str, Any]]],
) -> Receipt:
    """Run ``create`` (-> game, status, JSON body) once per (user, key) and request.

    Two requests racing with one key: the second one's insert waits on the unique index until
    the first commits, then fails; its whole transaction (its game too) rolls back and it
    answers the first one's stored response.
    """
    if not key:
        _, status, body = create()
        return Receipt(status, body)
    print_ = fingerprint(operation, payload)
    stored = _stored(user, key, print_)
    if stored is not None:
        return stored
    try:
        with transaction.atomic():
            game, status, body = create()
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                game=game,
                response_status=status,
                response_body=body,
                request_fingerprint=print_,
            )
    except IntegrityError:
        stored = _stored(user, key, print_)
        if stored is None:
            raise
        return stored
    return Receipt(status, body)


def idempotency_retention() -> timedelta:
    return timedelta(days=int(getattr(settings, "IDEMPOTENCY_RETENTION_DAYS", 30)))


def purge_idempotency_records(*, now: datetime | None = None, batch: int = 2000) -> int:
    """Delete records older than ``IDEMPOTENCY_RETENTION_DAYS``, in short batches."""
    cutoff = (now or timezone.now()) - idempotency_retention()
    old = IdempotencyRecord.objects.filter(created_at__lt=cutoff)
    total = 0
    while ids := list(old.values_list("pk", flat=True)[:batch]):
        total += IdempotencyRecord.objects.filter(pk__in=ids).delete()[0]
    return total

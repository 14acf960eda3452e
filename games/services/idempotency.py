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
from django.db import IntegrityError, connection, transaction
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


@dataclass(frozen=True)
class Stored:
    """A key's stored first response."""

    game_id: int
    status: int
    body: dict[str, Any]
    fingerprint: str


def hold(user: User, key: str) -> Stored | None:
    """Claim ``key`` for this transaction and read its stored response, in one query.

    While another request with the same key is in flight (its transaction holds the claim)
    this one is refused at once with 409 ``idempotency_key_in_use`` (as Stripe does), instead
    of waiting for it or answering about its own body. PostgreSQL claims with a
    transaction-scoped advisory lock on a hash of (user, key); SQLite runs one writer at a
    time, so there is nothing to claim there."""
    quote = connection.ops.quote_name
    record = IdempotencyRecord._meta
    columns = ", ".join(f"r.{quote(column)}" for column in (
        "game_id", "response_status", "response_body", "request_fingerprint"))
    if connection.vendor == "postgresql":
        claim = "pg_try_advisory_xact_lock(hashtextextended(%s, 0))"
        params: list[Any] = [f"idempotency:{user.pk}:{key}"]
    else:
        claim, params = "1", []
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {claim}, {columns} FROM (SELECT 1 AS one) AS o"
            f" LEFT JOIN {quote(record.db_table)} AS r"
            f" ON r.{quote('user_id')} = %s AND r.{quote('key')} = %s",
            [*params, user.pk, key],
        )
        claimed, game_id, status, body, fingerprint = cursor.fetchone()
    if not claimed:
        raise errors.idempotency_key_in_use()
    if game_id is None:
        return None
    return Stored(game_id, status, json.loads(body) if isinstance(body, str) else body,
                  fingerprint)


def _stored(user: User, key: str, print_: str) -> Receipt | None:
    stored = hold(user, key)
    if stored is None:
        return None
    if stored.fingerprint != print_:
        raise errors.idempotency_key_mismatch()
    return Receipt(stored.status, stored.body, replayed=True)


def run_once(
    *,
    user: User,
    key: str | None,
    operation: str,
    payload: dict[str, Any],
    create: Callable[[], tuple[Game, int, dict[str, Any]]],
) -> Receipt:
    """Run ``create`` (-> game, status, JSON body) once per (user, key) and request.

    Two requests racing with one key: the one that comes while the other is in flight is
    refused with 409 ``idempotency_key_in_use`` (``hold``); a retry after the first committed
    gets the stored response.
    """
    if not key:
        _, status, body = create()
        return Receipt(status, body)
    print_ = fingerprint(operation, payload)
    try:
        with transaction.atomic():
            stored = _stored(user, key, print_)  # claims the key until this commits
            if stored is not None:
                return stored
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
        # Stored meanwhile by a request the claim could not see (SQLite has no claim):
        # its whole transaction, game included, rolled back; answer the stored response.
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

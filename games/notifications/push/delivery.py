"""Posting one claimed push to its push service (RFC 8030) with pywebpush: the payload encrypted
for the subscription (RFC 8291, aes128gcm), signed with the application's VAPID key (RFC 8292).

The row moves ``pending -> sending`` (committed) before the request, so a redelivered task
never posts twice; what the service answers decides the rest:

- 201/202: sent (the subscription's ``last_success_at``);
- 404/410: the subscription expired: deleted, the push ``gone``;
- 429 and 5xx, a timeout or a refused connection: back to ``pending`` and ``PushRetry`` (the
  task retries with backoff, at least the service's ``Retry-After``);
- any other answer (400, 403, 413): ``failed`` (it would fail the same way again).

Right before posting, the endpoint's host is resolved again (a name can change its address):
one now inside our network gets nothing (the push ``failed``, the subscription deleted), one
that does not resolve is retried like an unreachable service. The post connects to an address
of that very lookup (``pinned``): a name answering a public address to the check and a
loopback one a moment later (DNS rebinding) still never reaches inside. With
``PUSH_ALLOW_PRIVATE_ENDPOINTS`` (development, the tests' loopback push service) nothing is
checked and requests resolves the name itself.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from pywebpush import WebPushException, webpush

from games.notifications.models import PushDelivery, PushStatus, PushSubscription
from games.notifications.push import hosts, messages, pinned
from games.notifications.push.keys import application_key

log = logging.getLogger(__name__)

MAX_PUSH_ATTEMPTS = 6


class PushRetry(Exception):
    """The push service is busy or unreachable: try again after ``retry_after`` seconds (None:
    the task's own backoff)."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.retry_after = retry_after


def _retry_after(response: requests.Response | None) -> float | None:
    if response is None:
        return None
    raw = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


def _mark(delivery_id: int, status: str, error: str = "") -> None:
    fields: dict[str, object] = {"status": status, "last_error": error[:300]}
    if status == PushStatus.SENT:
        fields["sent_at"] = timezone.now()
    PushDelivery.objects.filter(pk=delivery_id).update(**fields)


def deliver_push(*, delivery_id: int) -> str:
    """Post one pending push; answers the status it ends in (``PushRetry`` when it should be
    tried again). Not pending (sent, sending, gone...): nothing is posted."""
    key = application_key()
    with transaction.atomic():
        delivery = (
            PushDelivery.objects.select_for_update(of=("self",))
            .select_related("subscription", "user", "game")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != PushStatus.PENDING:
            return delivery.status if delivery else "missing"
        subscription = delivery.subscription
        if subscription is None:
            delivery.status = PushStatus.GONE
            delivery.save(update_fields=["status"])
            return PushStatus.GONE
        if key is None:
            delivery.status, delivery.last_error = PushStatus.FAILED, "no VAPID key"
            delivery.save(update_fields=["status", "last_error"])
            return PushStatus.FAILED
        message = messages.build(delivery)
        delivery.attempts += 1
        delivery.status = PushStatus.SENDING
        delivery.save(update_fields=["status", "attempts"])
    if settings.PUSH_ALLOW_PRIVATE_ENDPOINTS:
        return _post(delivery, subscription, message, key, None)
    address = _checked_address(delivery, subscription)
    if address is None:
        return PushStatus.FAILED
    with pinned.session(address) as session:
        return _post(delivery, subscription, message, key, session)


def _checked_address(delivery: PushDelivery, subscription: PushSubscription) -> str | None:
    """The public address to post to, from one lookup of the endpoint's name; None when the
    name now resolves inside our network: nothing is posted, the subscription is deleted
    (logged by id only: the endpoint's path is the device's secret)."""
    try:
        addresses = hosts.public_addresses(urlsplit(subscription.endpoint).hostname or "")
    except hosts.Unresolvable as exc:
        _mark(delivery.pk, PushStatus.PENDING, f"push endpoint host does not resolve: {exc}")
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
        raise PushRetry("push endpoint host does not resolve") from exc
    if addresses:
        return addresses[0]
    PushSubscription.objects.filter(pk=subscription.pk).delete()
    _mark(delivery.pk, PushStatus.FAILED, "push endpoint resolves to a private address")
    log.warning("push subscription %s now resolves to a private address: deleted, push %s "
                "not sent", subscription.pk, delivery.pk)
    return None


def _post(delivery: PushDelivery, subscription: PushSubscription,
          message: messages.PushMessage, key, session: requests.Session | None) -> str:
    timeout = float(settings.PUSH_TIMEOUT_SECONDS)
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(message.payload, separators=(",", ":")),
            vapid_private_key=key.vapid,
            vapid_claims={"sub": key.subject},
            ttl=message.ttl,
            headers={"Urgency": message.urgency, "Topic": message.topic},
            timeout=timeout,
            requests_session=session,
        )
    except WebPushException as exc:
        return _refused(delivery, subscription, exc)
    except requests.RequestException as exc:
        # Timeouts (a hung service) and refused connections: worth another try later.
        _mark(delivery.pk, PushStatus.PENDING, repr(exc))
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
        raise PushRetry(f"push service unreachable: {exc.__class__.__name__}") from exc
    _mark(delivery.pk, PushStatus.SENT)
    PushSubscription.objects.filter(pk=subscription.pk).update(
        last_success_at=timezone.now(), failures=0
    )
    return PushStatus.SENT


def _refused(delivery: PushDelivery, subscription: PushSubscription,
             exc: WebPushException) -> str:
    response = exc.response
    code = response.status_code if response is not None else 0
    error = f"{code} {response.reason if response is not None else exc}"
    if code in (404, 410):
        # RFC 8030 7.3: the subscription is gone for good.
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        _mark(delivery.pk, PushStatus.GONE, error)
        log.info("push subscription %s expired (%s): deleted", subscription.pk, code)
        return PushStatus.GONE
    PushSubscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
    if code == 429 or code >= 500:
        _mark(delivery.pk, PushStatus.PENDING, error)
        raise PushRetry(f"push service answered {code}", _retry_after(response))
    _mark(delivery.pk, PushStatus.FAILED, error)
    log.warning("push %s refused by the push service: %s", delivery.pk, error)
    return PushStatus.FAILED


def retry_later(*, delivery_id: int, seconds: float) -> None:
    PushDelivery.objects.filter(pk=delivery_id, status=PushStatus.PENDING).update(
        retry_at=timezone.now() + timedelta(seconds=seconds)
    )


def give_up(*, delivery_id: int, reason: str) -> None:
    """Retries used up: the push stays undelivered (the email rules still hold)."""
    PushDelivery.objects.filter(pk=delivery_id, status=PushStatus.PENDING).update(
        status=PushStatus.FAILED, last_error=reason[:300]
    )


def stale_pending(now: datetime, age: timedelta) -> list[int]:
    """Pending pushes whose task was lost (the sweep queues them again)."""
    return list(
        PushDelivery.objects.filter(status=PushStatus.PENDING, created_at__lt=now - age)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lt=now - age))
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )

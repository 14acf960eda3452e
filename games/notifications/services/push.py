"""Web push: subscriptions per device, each person's choices, and which pushes an event claims.

Every push is claimed as a ``PushDelivery`` under a unique key per event and subscription in
the transaction that decided it (the outbox's, for game events), and its send task is queued
after the commit: never two pushes for one event on one device. ``requeue_pushes`` (the
notifications sweep) sends again a push whose task was lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import dispatch
from games.models import Game, Seat
from games.notifications.models import (
    PushDelivery,
    PushKind,
    PushSettings,
    PushStatus,
    PushSubscription,
)
from games.notifications.push import hosts
from games.notifications.push.delivery import MAX_PUSH_ATTEMPTS, stale_pending
from games.notifications.push.keys import application_key, b64url_decode
from games.notifications.services._common import seen_recently

MAX_ENDPOINT_LENGTH = 1000
# Kinds of push whose notification stays on the screen until the game moves on.
SHOWN = (PushKind.TURN, PushKind.NUDGE, PushKind.REMINDER)
SETTINGS_FIELDS = ("turn", "nudge", "invite", "chat", "result", "reminder", "email_too")
# Which switch a kind of push obeys (``dealt`` goes with the invitation's switch).
SWITCH = {
    PushKind.TURN: "turn", PushKind.NUDGE: "nudge", PushKind.INVITE: "invite",
    PushKind.DEALT: "invite", PushKind.CHAT: "chat", PushKind.RESULT: "result",
    PushKind.REMINDER: "reminder",
}


# --- subscriptions ------------------------------------------------------------------------------
def _refuse(code: str, message: str, field: str) -> ApiError:
    return ApiError(code, message, status=400, details={"field": field})


def check_endpoint(endpoint: str) -> str:
    if len(endpoint) > MAX_ENDPOINT_LENGTH:
        raise _refuse("push_endpoint_too_long",
                      _("The push endpoint is longer than 1000 characters."), "endpoint")
    parts = urlsplit(endpoint)
    allow_private = bool(settings.PUSH_ALLOW_PRIVATE_ENDPOINTS)
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        raise _refuse("push_endpoint_insecure",
                      _("The push endpoint must be an https:// address."), "endpoint")
    if not parts.hostname or parts.username or parts.password:
        raise _refuse("push_endpoint_invalid", _("The push endpoint is not a valid address."),
                      "endpoint")
    if allow_private:
        return endpoint
    try:
        private = hosts.is_private(parts.hostname)
    except hosts.Unresolvable:
        raise _refuse("push_endpoint_invalid",
                      _("The push endpoint's host name does not resolve."),
                      "endpoint") from None
    if private:
        raise _refuse("push_endpoint_private",
                      _("The push endpoint must be a public address."), "endpoint")
    return endpoint


def check_keys(p256dh: str, auth: str) -> None:
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        valid_point = len(point) == 65
    except (ValueError, TypeError):
        valid_point = False
    if not valid_point:
        raise _refuse("push_key_invalid",
                      _("keys.p256dh is not a P-256 public key (65 bytes, base64url)."),
                      "keys.p256dh")
    try:
        secret = b64url_decode(auth)
    except (ValueError, TypeError):
        secret = b""
    if len(secret) != 16:
        raise _refuse("push_auth_invalid",
                      _("keys.auth is not a 16-byte secret (base64url)."), "keys.auth")


def subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str, device: Any = None,
              session_key: str = "") -> tuple[PushSubscription, bool]:
    """Store (or take over: a browser signed in as someone else now) the subscription of this
    device; ``(subscription, created)``."""
    check_endpoint(endpoint)
    check_keys(p256dh, auth)
    fields = {
        "user": user, "p256dh": p256dh, "auth": auth, "device": device,
        "session_key": session_key if device is None else "", "failures": 0,
    }
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is not None:
            if existing.user_id != user.pk:
                # Another person signed in on this browser: what was waiting for the previous
                # one must not appear on their screen.
                PushDelivery.objects.filter(
                    subscription=existing, status=PushStatus.PENDING
                ).update(status=PushStatus.GONE)
            for name, value in fields.items():
                setattr(existing, name, value)
            existing.save()
            return existing, False
        try:
            with transaction.atomic():
                return PushSubscription.objects.create(endpoint=endpoint, **fields), True
        except IntegrityError:  # the same browser subscribed twice at once
            return PushSubscription.objects.get(endpoint=endpoint), False


def subscriptions_of(user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id))


def unsubscribe(*, user_id: int, subscription_id: int) -> None:
    deleted, _count = PushSubscription.objects.filter(
        user_id=user_id, pk=subscription_id
    ).delete()
    if not deleted:
        raise ApiError("push_subscription_not_found", _("No such push subscription."),
                       status=404)


def forget_session(session_key: str | None) -> int:
    """Signing out of a web session deletes the subscriptions made in it."""
    if not session_key:
        return 0
    return PushSubscription.objects.filter(session_key=session_key).delete()[0]


def forget_user(user_id: int) -> int:
    """A deleted account's devices get nothing more."""
    return PushSubscription.objects.filter(user_id=user_id).delete()[0]


def settings_of(user_id: int) -> PushSettings:
    return PushSettings.objects.filter(user_id=user_id).first() or PushSettings(user_id=user_id)


def update_settings(*, user_id: int, **choices: bool) -> PushSettings:
    unknown = set(choices) - set(SETTINGS_FIELDS)
    assert not unknown, unknown
    row, _created = PushSettings.objects.update_or_create(user_id=user_id, defaults=choices)
    return row


def public_key() -> str | None:
    key = application_key()
    return key.public_key if key else None


# --- decisions ----------------------------------------------------------------------------------
def _enqueue(delivery_id: int) -> None:
    transaction.on_commit(lambda: dispatch.enqueue_push(delivery_id))


def _claim(key: str, subscription: PushSubscription, **fields: Any) -> PushDelivery | None:
    try:
        with transaction.atomic():
            delivery = PushDelivery.objects.create(
                key=key, subscription=subscription, user_id=subscription.user_id, **fields
            )
    except IntegrityError:
        return None
    _enqueue(delivery.pk)
    return delivery


def claim(*, event: str, kind: PushKind, user_id: int, game_id: int | None = None,
          move_number: int | None = None, facts: dict[str, Any] | None = None,
          ) -> list[PushDelivery]:
    """One push of ``kind`` to each of the person's devices, if they want this kind and push
    is configured (no key: nothing, the emails go as before)."""
    if kind != PushKind.CLEAR:
        if not getattr(settings_of(user_id), SWITCH[kind]):
            return []
    if application_key() is None:
        return []
    claimed = []
    for subscription in PushSubscription.objects.filter(user_id=user_id).order_by("pk"):
        delivery = _claim(
            f"push:{event}:{subscription.pk}", subscription, kind=kind, game_id=game_id,
            move_number=move_number, facts=facts or {},
        )
        if delivery is not None:
            claimed.append(delivery)
    return claimed


def turn(*, game: Game, seat: Seat, move_number: int) -> list[PushDelivery]:
    """It became ``seat``'s turn after move ``move_number``: who moved, for how many points."""
    assert seat.user_id is not None
    last = game.moves.filter(number=move_number).values("seat", "score").first()
    if last is None:
        return []
    facts = {"mover_seat": last["seat"], "points": last["score"]}
    return claim(event=f"turn:{game.pk}:{move_number}", kind=PushKind.TURN,
                 user_id=seat.user_id, game_id=game.pk, move_number=move_number, facts=facts)


def chat(*, game_id: int, message_id: int, author_name: str, user_ids: list[int]) -> int:
    """A chat line to the players who may read it and are not looking at the game."""
    now = timezone.now()
    seats = Seat.objects.filter(game_id=game_id, user_id__in=user_ids)
    pushed = 0
    for seat in seats:
        if seat.user_id is None or seen_recently(seat, now):
            continue
        pushed += len(claim(event=f"chat:{message_id}", kind=PushKind.CHAT,
                            user_id=seat.user_id, game_id=game_id,
                            facts={"author": author_name}))
    return pushed


def clear_shown(*, game_id: int, move_number: int, user_ids: Iterable[int]) -> int:
    """Take the game's notification off the devices of ``user_ids`` where the latest push
    about the game still shows a turn older than ``move_number`` (they moved, or the game
    moved on): a silent ``clear`` push, one per device and move."""
    cleared = 0
    for user_id in user_ids:
        for subscription in PushSubscription.objects.filter(user_id=user_id):
            latest = (
                PushDelivery.objects.filter(subscription=subscription, game_id=game_id)
                .order_by("-pk")
                .values("kind", "move_number")
                .first()
            )
            if latest is None or latest["kind"] not in SHOWN:
                continue
            if (latest["move_number"] or 0) >= move_number:
                continue
            cleared += _claim(
                f"push:clear:{game_id}:{move_number}:{subscription.pk}", subscription,
                kind=PushKind.CLEAR, game_id=game_id, move_number=move_number,
            ) is not None
    return cleared


def finished(*, game_id: int, now: datetime) -> int:
    """The result to each person who wants it (not to one who is looking at the game, nor at
    a table to one still sitting there, as for the email); the others' shown turn goes."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seats = [s for s in game.seats.all() if s.user_id is not None]
    pushed = 0
    if game.status == Game.Status.FINISHED:
        for seat in seats:
            assert seat.user_id is not None
            if (game.turn_seconds and not seat.left) or (
                not game.turn_seconds and seen_recently(seat, now)
            ):
                continue
            pushed += len(claim(event=f"result:{game_id}", kind=PushKind.RESULT,
                                user_id=seat.user_id, game_id=game_id,
                                move_number=game.move_number + 1))
    clear_shown(game_id=game_id, move_number=game.move_number + 1,
                user_ids=[s.user_id for s in seats if s.user_id is not None])
    return pushed


def email_delay() -> timedelta:
    return timedelta(minutes=int(settings.PUSH_EMAIL_DELAY_MINUTES))


def requeue_pushes(*, now: datetime | None = None, age: timedelta) -> int:
    """Queue again pending pushes whose task was lost; fail those past their attempts."""
    now = now or timezone.now()
    PushDelivery.objects.filter(
        status=PushStatus.PENDING, created_at__lt=now - age, attempts__gte=MAX_PUSH_ATTEMPTS
    ).update(status=PushStatus.FAILED)
    queued = 0
    for pk in stale_pending(now, age):
        if not dispatch.enqueue_push(pk):
            break
        queued += 1
    return queued

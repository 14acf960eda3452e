"""Device tokens: django-rest-knox with ``accounts.Device`` as its token model.

Why knox: it stores only a digest of each key (a leaked database does not leak sign-ins), it
gives a user many tokens (one per sign-in) and an expiry that moves on with use; DRF's own
``Token`` is one plain-text key per user. Clients keep sending ``Authorization: Token <key>``;
the keys of the DRF era were moved here as digests by migration 0006, so they still work.
"""

from __future__ import annotations

import binascii
from datetime import timedelta
from hmac import compare_digest
from typing import TYPE_CHECKING

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from accounts.models import Device
from config.compiled_queries import CompiledQuery

if TYPE_CHECKING:
    from accounts.models import User

NAME_LENGTH = Device._meta.get_field("name").max_length


def device_name(given: str | None, user_agent: str) -> str:
    """The name a sign-in gets: the one the client gave, else its User-Agent's first product
    ("Firefox/128.0" from a browser's long string, "curl/8.5.0"), else "unknown"."""
    name = (given or "").strip()
    if not name:
        agent = user_agent.strip()
        # Browsers start with "Mozilla/5.0 (...)": the last product names the browser.
        products = [p for p in agent.split() if "/" in p and not p.startswith("(")]
        if agent.startswith("Mozilla/") and len(products) > 1:
            name = products[-1]
        else:
            name = products[0] if products else agent
    name = "".join(ch for ch in name if ch.isprintable())
    return name[:NAME_LENGTH] or "unknown"


def issue(*, user: User, name: str) -> tuple[Device, str]:
    """A new token for one sign-in: (its device row, the key to hand out once)."""
    # Signing in is a use: no write on the requests of the next minute (renew_token).
    device, key = Device.objects.create(user=user, name=name, last_used=timezone.now())
    return device, key


def digest_of(key: str) -> str:
    return hash_token(key)


def live(queryset=None):
    """Devices whose token has not expired."""
    now = timezone.now()
    queryset = Device.objects.all() if queryset is None else queryset
    return queryset.exclude(expiry__lt=now)


def find(key: str) -> Device | None:
    """The unexpired device of ``key`` (with its user), or None."""
    if not key or len(key) > 200:
        return None
    return (
        live(Device.objects.select_related("user"))
        .filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH], digest=digest_of(key))
        .first()
    )


def idle_limit() -> timedelta:
    return knox_settings.TOKEN_TTL


# ``Authorization: Token <key>``, or ``Bearer <key>`` as generated clients send it.
PREFIXES = ("token", "bearer")


def key_of(header: str) -> str | None:
    """The device key of an ``Authorization`` header (either prefix), None if it holds none."""
    parts = header.split()
    if len(parts) == 2 and parts[0].lower() in PREFIXES:
        return parts[1]
    return None


# knox's own message, translated by knox's catalog (not marked for this project's catalogs).
knox_message = translation.gettext

# knox's query (the devices of a key, with their users), compiled once: building and compiling
# it was ~1 ms of every API request (issue 28).
_DEVICES_OF_KEY: CompiledQuery[Device] = CompiledQuery(
    lambda key: Device.objects.filter(token_key=key).select_related("user"), 1
)


class DeviceTokenAuthentication(TokenAuthentication):
    """Knox's authentication, with the time of last use kept on the device, and without knox's
    per-request scan of every other token of the user (the hourly sweep deletes expired ones).
    The key comes after ``Token`` or ``Bearer``."""

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower().decode("latin-1") not in PREFIXES:
            return None  # another scheme's header (or none)
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: give one key after Token or Bearer.")
            )
        return self.authenticate_credentials(auth[1])

    def authenticate_credentials(self, token: bytes):
        """knox's (5.x), reading the devices of the key with ``_DEVICES_OF_KEY``."""
        msg = knox_message("Invalid token.")
        key = token.decode("utf-8")
        for auth_token in _DEVICES_OF_KEY.run([key[:CONSTANTS.TOKEN_KEY_LENGTH]]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(key)
            except (TypeError, binascii.Error) as exc:
                raise exceptions.AuthenticationFailed(msg) from exc
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(msg)

    def renew_token(self, auth_token: Device) -> None:
        now = timezone.now()
        if auth_token.last_used is None or now - auth_token.last_used > timedelta(
            seconds=knox_settings.MIN_REFRESH_INTERVAL
        ):
            # One write at most a minute per device: the expiry moves on with the last use.
            auth_token.last_used = now
            auth_token.expiry = now + knox_settings.TOKEN_TTL
            Device.objects.filter(pk=auth_token.pk).update(
                last_used=now, expiry=auth_token.expiry
            )

    def _cleanup_token(self, auth_token: Device) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False

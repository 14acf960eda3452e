"""The application server's VAPID key pair (RFC 8292), read from the settings.

``VAPID_PRIVATE_KEY`` (or the file ``VAPID_PRIVATE_KEY_FILE`` names, which ``make run`` writes
once under var/) holds the private key; the public key, which browsers need as the
``applicationServerKey`` of their subscription, is derived from it. Without a key push is off:
``application_key()`` answers None, logged once as an error, and emails go on as before.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

log = logging.getLogger(__name__)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class ApplicationKey:
    vapid: Vapid02
    public_key: str  # base64url of the uncompressed P-256 point (65 bytes)
    subject: str  # the JWT's ``sub``: mailto: or https: contact of the operator


def parse_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from a PEM, or base64url of its raw 32 bytes or of its DER."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
    else:
        raw = b64url_decode(text)
        if len(raw) == 32:
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        else:
            key = serialization.load_der_private_key(raw, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError("a VAPID key must be a P-256 (prime256v1) private key")
    return key


def new_private_key() -> str:
    """A fresh private key as base64url of its raw 32 bytes (what ``make run`` stores)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(key: ec.EllipticCurvePrivateKey) -> str:
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def _configured_text() -> str:
    if settings.VAPID_PRIVATE_KEY:
        return str(settings.VAPID_PRIVATE_KEY)
    path = settings.VAPID_PRIVATE_KEY_FILE
    if path and Path(path).is_file():
        return Path(path).read_text()
    return ""


@lru_cache(maxsize=4)
def _load(text: str, subject: str) -> ApplicationKey | None:
    if not text:
        log.error(
            "web push is off: no VAPID_PRIVATE_KEY is set (see README, 'Web push'); "
            "emails are sent as usual"
        )
        return None
    try:
        key = parse_private_key(text)
    except (ValueError, TypeError) as exc:
        log.error("web push is off: VAPID_PRIVATE_KEY cannot be read (%s)", exc)
        return None
    return ApplicationKey(Vapid02(private_key=key), public_key_of(key), subject)


def application_key() -> ApplicationKey | None:
    """The key pair, or None (push off)."""
    return _load(_configured_text(), str(settings.VAPID_SUBJECT))

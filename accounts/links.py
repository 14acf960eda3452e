"""Signed links of account emails: verify an address (3 days), reset a password (1 hour).

A link's token is Django's ``signing`` of ``{"u": user id, "f": fingerprint}`` with the time it
was made. The fingerprint is an HMAC of what the link may act on: the address to verify, or
the current password hash and address for a reset. Once the link has done its work (the
address is verified, the password changed) or the account changed under it (a new address,
another password), the fingerprint no longer matches and the link is refused as used. Nothing
is stored per link, and nothing secret is in it (the fingerprint is keyed with SECRET_KEY).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from config.errors import ApiError

if TYPE_CHECKING:
    from accounts.models import User

VERIFY_SALT = "accounts.verify-email"
RESET_SALT = "accounts.reset-password"


@dataclass(frozen=True)
class Purpose:
    salt: str
    path: str  # the web page of the link, under SITE_BASE_URL

    def max_age(self) -> timedelta:
        if self.salt == VERIFY_SALT:
            return timedelta(days=settings.ACCOUNT_VERIFY_EMAIL_DAYS)
        return timedelta(minutes=settings.ACCOUNT_RESET_PASSWORD_MINUTES)


VERIFY_EMAIL = Purpose(VERIFY_SALT, "/account/verify-email")
RESET_PASSWORD = Purpose(RESET_SALT, "/account/reset-password")


def _fingerprint(purpose: Purpose, user: User) -> str:
    if purpose is VERIFY_EMAIL:
        value = f"{user.pk}:{(user.email or '').lower()}"
    else:
        value = f"{user.pk}:{user.password}:{(user.email or '').lower()}:{user.is_active}"
    return salted_hmac(purpose.salt, value, algorithm="sha256").hexdigest()[:32]


def make_token(purpose: Purpose, user: User) -> str:
    return signing.dumps({"u": user.pk, "f": _fingerprint(purpose, user)}, salt=purpose.salt,
                         compress=False)


def url(purpose: Purpose, user: User) -> str:
    query = urlencode({"token": make_token(purpose, user)})
    return f"{settings.SITE_BASE_URL}{purpose.path}?{query}"


def link_invalid() -> ApiError:
    return ApiError("link_invalid", _("This link is not valid. Ask for a new one."))


def link_expired() -> ApiError:
    return ApiError("link_expired", _("This link has expired. Ask for a new one."))


def link_used() -> ApiError:
    return ApiError(
        "link_used", _("This link has already been used or replaced by a newer one.")
    )


def user_id_of(purpose: Purpose, token: str) -> int:
    """The user id a token names; ``link_expired`` / ``link_invalid`` otherwise."""
    try:
        data = signing.loads(token, salt=purpose.salt, max_age=purpose.max_age())
    except signing.SignatureExpired:
        raise link_expired() from None
    except signing.BadSignature:
        raise link_invalid() from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise link_invalid()
    return data["u"]


def check(purpose: Purpose, token: str, user: User | None) -> User:
    """Raise ``link_used`` unless ``token`` still fits ``user`` (its state as locked now);
    the user it fits."""
    data = signing.loads(token, salt=purpose.salt)  # already verified by user_id_of
    if user is None or not constant_time_compare(data.get("f", ""), _fingerprint(purpose, user)):
        raise link_used()
    return user

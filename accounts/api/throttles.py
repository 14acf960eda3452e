"""Login and registration throttles (atomic counting: see config.throttling)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from accounts.usernames import skeleton
from config.throttling import AddressThrottle, UserThrottle, client_address


class LoginThrottle(AddressThrottle):
    """Per address (scope ``login``), then per account (``login_account``): guessing one
    account's password from many addresses is limited too. The account is the submitted name
    as login finds it (any case, any look-alike spelling), whether or not it exists."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        yield from super().identities(request, view)
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        if isinstance(username, str) and username.strip():
            yield "login_account", hashlib.sha256(skeleton(username.strip()).encode()).hexdigest()




class PasswordResetThrottle(AddressThrottle):
    """Per client address, then per address asked for (known or not: the answer must not
    differ), so nobody floods one mailbox with reset emails."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        yield from super().identities(request, view)
        data = request.data
        email = data.get("email") if isinstance(data, Mapping) else None
        if isinstance(email, str) and email.strip():
            digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
            yield "password_reset_email", digest


__all__ = [
    "AddressThrottle", "LoginThrottle", "PasswordResetThrottle", "UserThrottle", "client_address",
]

"""Table codes: six characters a person can read aloud and type without confusion."""

from __future__ import annotations

import secrets

# No 0/O and no 1/I/L: the look-alikes are left out, so a code read off a screen is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise(code: str) -> str | None:
    """The stored form of a code typed by a person (any case, spaces around), or None if it
    cannot be a code at all."""
    code = (code or "").strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code

"""Canonical and confusable-safe forms of usernames and emails.

``canonical`` (NFKC + casefold) makes ``P22`` and ``p22`` the same name; ``skeleton`` also folds
characters that look alike (Cyrillic ``р`` and Latin ``p``, ``0`` and ``o``, ``1``/``l``/``i``)
so that a look-alike of an existing name can be refused.

The table is our own, small and fixed, rather than a package's (e.g. confusable_homoglyphs,
which flags mixed scripts but gives no skeleton to compare): skeletons are stored with a unique
index, so the mapping must only change together with a data migration that recomputes them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

# Applied after canonical(): keys are lower case (casefolded) characters.
_LOOKALIKES = {
    # digits and Latin letters that pass for each other
    "0": "o", "1": "l", "i": "l", "ı": "l", "!": "l",
    # Cyrillic
    "а": "a", "в": "b", "ь": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h",
    "і": "l", "ї": "l", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "п": "n", "о": "o", "р": "p",
    "ԛ": "q", "г": "r", "ѕ": "s", "т": "t", "и": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y",
    "з": "3",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "l", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ς": "c",
    # Latin look-alikes from other blocks
    "ɡ": "g", "ɑ": "a", "ʏ": "y", "ł": "l",
}
_TRANSLATION = str.maketrans(_LOOKALIKES)
# Pairs of letters that read as one (after the single characters are folded).
_SEQUENCES = (("rn", "m"), ("vv", "w"))


def canonical(name: str) -> str:
    """NFKC + casefold (NFKC again: casefolding can leave a string unnormalised)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """What the name looks like: equal skeletons are names a reader could mistake."""
    folded = canonical(name).translate(_TRANSLATION)
    for sequence, replacement in _SEQUENCES:
        folded = folded.replace(sequence, replacement)
    return folded


def canonical_email(email: str) -> str | None:
    """Emails compare without case (``None`` for no email: many accounts may have none)."""
    email = email.strip()
    return canonical(email) if email else None


@dataclass(frozen=True)
class Duplicate:
    """An account whose name or email collides with an older account's (``kept_pk``)."""

    field: str  # "username" or "email"
    pk: int
    value: str
    kept_pk: int
    kept_value: str

    def __str__(self) -> str:
        return (
            f"{self.field} of user {self.pk} ({self.value!r}) collides with user "
            f"{self.kept_pk} ({self.kept_value!r})"
        )


def derived_fields(
    rows: Iterable[tuple[int, str, str]],
) -> tuple[dict[int, dict[str, str | None]], list[Duplicate]]:
    """For (pk, username, email) rows in pk order: each account's derived fields, and the
    collisions. The oldest account of a colliding group keeps its skeleton/email key; the
    others get ``None`` (outside the unique index) and are reported, never merged."""
    fields: dict[int, dict[str, str | None]] = {}
    duplicates: list[Duplicate] = []
    names: dict[str, tuple[int, str]] = {}
    emails: dict[str, tuple[int, str]] = {}
    for pk, username, email in rows:
        skeleton_key = skeleton(username)
        name_key: str | None = skeleton_key
        if skeleton_key in names:
            duplicates.append(Duplicate("username", pk, username, *names[skeleton_key]))
            name_key = None
        else:
            names[skeleton_key] = (pk, username)
        email_key = canonical_email(email or "")
        if email_key is not None:
            if email_key in emails:
                duplicates.append(Duplicate("email", pk, email, *emails[email_key]))
                email_key = None
            else:
                emails[email_key] = (pk, email)
        fields[pk] = {
            "username_canonical": canonical(username),
            "username_skeleton": name_key,
            "email_canonical": email_key,
        }
    return fields, duplicates

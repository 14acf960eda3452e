"""Text that may end up in an email header (names, emails) must be a single clean line."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Control (Cc: CR, LF, NUL, ...), format (Cf: zero-width, bidi overrides), line/paragraph
# separators and lone surrogates: none of them belongs in a name.
_REFUSED = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def has_control_characters(value: str) -> bool:
    return any(unicodedata.category(char) in _REFUSED for char in value)


def refuse_control_characters(value: str) -> None:
    if has_control_characters(value):
        raise ValidationError(
            _("Control characters (such as line breaks) are not allowed."),
            code="control_characters",
        )


def single_line(value: str) -> str:
    """``value`` with every control character replaced by a space (for email headers)."""
    cleaned = "".join(
        " " if unicodedata.category(char) in _REFUSED else char for char in value
    )
    return " ".join(cleaned.split())

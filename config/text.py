"""Text that may end up in an email header (names, emails) must be a single clean line."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Control (Cc: CR, LF, NUL, ...), format (Cf: zero-width, bidi overrides), line/paragraph
# separators and lone surrogates: none of them belongs in a name. Only in the Basic Multilingual
# Plane: the format characters above it are emoji tags (the flag of Scotland is spelled with
# them), and keeping to the BMP lets the OpenAPI schema state the rule as a plain pattern.
_REFUSED = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def _refused_ranges() -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if unicodedata.category(chr(code)) in _REFUSED:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return ranges


_RANGES = _refused_ranges()
_REFUSED_CHARS = frozenset(chr(c) for lo, hi in _RANGES for c in range(lo, hi + 1))
# The refused characters as a regex character-class body (\uXXXX escapes: the same in
# ECMAScript and Python regexes), for the schema's patterns. Lone surrogates are left out of
# it: they are no Unicode text (UTF-8 cannot carry them, only a JSON escape can), and a range
# of them is a pattern many validators cannot compile — Schemathesis and Rust-based validators
# dropped the whole pattern and took any control character as valid. They are still refused.
REFUSED_CLASS = "".join(
    f"\\u{lo:04x}" if lo == hi else f"\\u{lo:04x}-\\u{hi:04x}"
    for lo, hi in _RANGES
    if not 0xD800 <= lo <= 0xDFFF
)
# A string with none of them (what refuse_control_characters accepts), as a schema pattern.
NO_CONTROL_CHARACTERS = f"^[^{REFUSED_CLASS}]*$"


# A display name may hold emoji sequences joined by the zero-width joiner (🏳️‍🌈, 👨‍👩‍👧, 👩‍💻;
# their variation selectors and skin tones are marks, not format characters, so they pass
# anyway): a joiner is taken between two characters that are not refused themselves, never at
# either end or twice in a row. Every other refused character stays refused (line breaks, bidi
# overrides, zero-width spaces). As a plain pattern (no look-around), for the schema too.
ZERO_WIDTH_JOINER = "\u200d"
NAME_PATTERN = f"^(?:[^{REFUSED_CLASS}]+(?:\\u200d[^{REFUSED_CLASS}]+)*)?$"


def has_invisible_tricks(value: str) -> bool:
    """What ``refuse_invisible_tricks`` refuses: a refused character other than a joiner
    inside a sequence (see ``NAME_PATTERN``)."""
    last = len(value) - 1
    for at, char in enumerate(value):
        if char != ZERO_WIDTH_JOINER:
            if char in _REFUSED_CHARS:
                return True
        elif at in (0, last) or value[at - 1] in _REFUSED_CHARS or value[at + 1] in _REFUSED_CHARS:
            return True
    return False


def refuse_invisible_tricks(value: str) -> None:
    """The display name's rule: ``refuse_control_characters`` but for emoji joiners."""
    if has_invisible_tricks(value):
        raise ValidationError(
            _("Control characters (such as line breaks) are not allowed."),
            code="control_characters",
        )


def has_control_characters(value: str) -> bool:
    return any(char in _REFUSED_CHARS for char in value)


def refuse_control_characters(value: str) -> None:
    if has_control_characters(value):
        raise ValidationError(
            _("Control characters (such as line breaks) are not allowed."),
            code="control_characters",
        )


def single_line(value: str) -> str:
    """``value`` with every control character replaced by a space (for email headers); the
    joiners inside an emoji sequence of a display name stay."""
    last = len(value) - 1
    cleaned = "".join(
        char if char not in _REFUSED_CHARS or (
            char == ZERO_WIDTH_JOINER and 0 < at < last
            and value[at - 1] not in _REFUSED_CHARS and value[at + 1] not in _REFUSED_CHARS
        ) else " "
        for at, char in enumerate(value)
    )
    return " ".join(cleaned.split())

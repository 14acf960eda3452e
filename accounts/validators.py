"""The account fields' text rules: names and emails end up in email headers, so they must be a
single clean line (``config.text``, shared with the schema)."""

from config.text import (
    NO_CONTROL_CHARACTERS,
    REFUSED_CLASS,
    has_control_characters,
    refuse_control_characters,
    single_line,
)

__all__ = [
    "NO_CONTROL_CHARACTERS", "REFUSED_CLASS", "has_control_characters",
    "refuse_control_characters", "single_line",
]

"""The account fields' text rules: names and emails end up in email headers, so they must be a
single clean line (``config.text``, shared with the schema)."""

from config.text import (
    NAME_PATTERN,
    NO_CONTROL_CHARACTERS,
    REFUSED_CLASS,
    has_control_characters,
    has_invisible_tricks,
    refuse_control_characters,
    refuse_invisible_tricks,
    single_line,
)

# A display name is shown beside a board on a 360-px phone and in email subjects: longer
# names are refused (the pages cut any name to their room with an ellipsis anyway).
DISPLAY_NAME_MAX_LENGTH = 40

__all__ = [
    "DISPLAY_NAME_MAX_LENGTH", "NAME_PATTERN", "NO_CONTROL_CHARACTERS", "REFUSED_CLASS",
    "has_control_characters", "has_invisible_tricks", "refuse_control_characters",
    "refuse_invisible_tricks", "single_line",
]

"""Names and descriptions of the computer players in the active language.

The engine's ``LEVEL_INFO`` is English; players read these instead (keyed by level).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

NAMES = {
    "beginner": _("Beginner"),
    "casual": _("Casual"),
    "strong": _("Strong"),
    "expert": _("Expert"),
}

DESCRIPTIONS = {
    "beginner": _("Spots only short moves, and not every time; plays loosely."),
    "casual": _("Looks at part of the board and plays the best move it noticed."),
    "strong": _(
        "Weighs points against the tiles it keeps, swaps wisely and plans the end of the game."
    ),
    "expert": _("Plays like Strong, and tries its best moves against the replies you could make."),
}


def level_name(level: str) -> str:
    name = NAMES.get(level)
    return str(name) if name is not None else level


def display_name(level: str) -> str:
    """How a computer opponent is named, e.g. "Computer (Expert)"."""
    return gettext("Computer (%(level)s)") % {"level": level_name(level)}


def description(level: str) -> str:
    text = DESCRIPTIONS.get(level)
    return str(text) if text is not None else ""

"""Names and descriptions of the computer players in the active language.

The engine's ``LEVEL_INFO`` is English; players read these instead (keyed by level). Each
description ends with the level's measured strength — win rate and average score against the
greedy yardstick — read from ``engine/level_stats.json`` (written by
``bench/players.py --write``): the translations hold placeholders, never the numbers.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.crazy10s import levelstats

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


MEASURED = _(
    "Against a player who always takes the highest score it wins %(win_rate)s%% of games and "
    "scores %(average_score)s points on average (%(games)s games measured)."
)


def level_name(level: str) -> str:
    name = NAMES.get(level)
    return str(name) if name is not None else level


def display_name(level: str) -> str:
    """How a computer opponent is named, e.g. "Computer (Expert)"."""
    return gettext("Computer (%(level)s)") % {"level": level_name(level)}


def description(level: str) -> str:
    """How the level plays, then how strong it measured (when it was measured)."""
    text = DESCRIPTIONS.get(level)
    if text is None:
        return ""
    measured = measured_strength(level)
    return f"{text} {measured}" if measured else str(text)


def measured_strength(level: str) -> str:
    """The benchmark's figures for ``level`` in a sentence, "" for a level never measured."""
    figures = levelstats.level_figures(level)
    if not figures:
        return ""
    return str(MEASURED) % {
        "win_rate": figures["win_rate"],
        "average_score": number_format(figures["average_score"], force_grouping=True),
        "games": number_format(figures["games"], force_grouping=True),
    }

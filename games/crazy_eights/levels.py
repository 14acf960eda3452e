"""The computer regulars offered to players: their names (kept in every language) and their
one-sentence personalities in the active language, each followed by its measured strength
(win rates against a random player and a first-card player at two and four seats) read from
``engine/level_stats.json`` (written by ``python -m games.crazy_eights levelstats --write``):
the translations hold placeholders, never the numbers."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from games.crazy_eights import levelstats
from games.crazy_eights.engine.players import LEVEL_INFO

# "random" and "first" are the benchmarks' baselines, never offered to a person.
LEVELS: tuple[str, ...] = ("cautious", "aggressive", "chaotic", "strong")

DESCRIPTIONS = {
    "cautious": _("Hoards her 8s for a rainy day and gets rid of expensive cards first."),
    "aggressive": _(
        "Aims every Queen and 2 at whoever is about to go out, and keeps a 2 back as a shield."
    ),
    "chaotic": _("Plays whatever catches her eye and names suits on a whim."),
    "strong": _(
        "Counts every card played, works out what you cannot hold and plays to win the match."
    ),
}

MEASURED = _(
    "Against a player who lays random cards she wins %(random_2)s%% of two-player matches and "
    "%(random_4)s%% at a table of four (an even share is 25%%); against one who always lays "
    "the first card that fits, %(first_2)s%% and %(first_4)s%% (%(matches)s matches each)."
)


def level_name(level: str) -> str:
    info = LEVEL_INFO.get(level)
    return info[0] if info is not None else level


def description(level: str) -> str:
    """How the regular plays, then how strong she measured (when she was measured)."""
    text = DESCRIPTIONS.get(level)
    if text is None:
        return ""
    measured = measured_strength(level)
    return f"{text} {measured}" if measured else str(text)


def measured_strength(level: str) -> str:
    """The measured figures for ``level`` in a sentence, "" for a regular never measured."""
    figures = levelstats.level_figures(level)
    if not figures:
        return ""
    return str(MEASURED) % {
        **figures,
        "matches": number_format(figures["matches"], force_grouping=True),
    }

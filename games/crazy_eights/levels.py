"""The computer regulars offered to players: their names (kept in every language) and their
one-sentence personalities in the active language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.crazy_eights.engine.players import LEVEL_INFO

# "random" is the benchmarks' baseline, never offered to a person.
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


def level_name(level: str) -> str:
    info = LEVEL_INFO.get(level)
    return info[0] if info is not None else level


def description(level: str) -> str:
    text = DESCRIPTIONS.get(level)
    return str(text) if text is not None else ""

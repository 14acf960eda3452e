"""The how-to-play text, in the project's own words. Every string is marked for translation,
so adding a language means translating this module's messages (nothing else changes)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

TITLE = _("How to play Crazy10s")

SECTIONS = (
    (
        _("The idea"),
        _(
            "Two players take turns laying number tiles on a 13×13 board. Every row or column "
            "of touching tiles that you create or extend must add up to exactly 10. The player "
            "with the higher score at the end wins."
        ),
    ),
    (
        _("Tiles and racks"),
        _(
            "There are 80 tiles: the digits 0 to 9 in different quantities and 3 wild tiles "
            "(*). You hold up to 7 tiles and refill after every placement or swap while the "
            "bag lasts. A wild becomes the digit you choose when you lay it, for good."
        ),
    ),
    (
        _("Laying tiles"),
        _(
            "Lay 1 to 7 tiles in a single row or column without leaving empty squares between "
            "them (tiles already on the board may fill the gaps). Each tile you lay must be part "
            "of a line of two or more tiles, and every such line must add up to 10. The first "
            "move covers the centre square with at least two tiles; later moves must touch a "
            "tile that is already on the board."
        ),
    ),
    (
        _("Scoring"),
        _(
            "Each line you complete scores the sum of its tiles. A double or triple number "
            "square multiplies the tile laid on it; a double or triple line square multiplies "
            "the whole line. Bonuses count only on the turn a tile is laid there. The centre "
            "square doubles the lines of the first move. Using all seven tiles at once earns "
            "20 extra points. A single 0 laid on its own is allowed and scores nothing."
        ),
    ),
    (
        _("Other turns"),
        _(
            "Instead of laying tiles you may pass, or swap 1 to 7 tiles with the bag while it "
            "holds at least that many. You may resign at any time; resigning loses the game. "
            "If your time for a turn runs out, the turn counts as a pass."
        ),
    ),
    (
        _("The end"),
        _(
            "The game ends when a player uses their last tile after the bag is empty: that "
            "player also scores the value of the tiles left on the other rack. It also ends "
            "after six turns in a row without points; then each player loses the value of their "
            "own remaining tiles. Wild tiles left over are worth nothing."
        ),
    ),
)

BONUS_KINDS = (
    ("DN", _("Double number: the tile laid here counts twice in its lines.")),
    ("TN", _("Triple number: the tile laid here counts three times in its lines.")),
    ("DL", _("Double line: every line through this square scores double.")),
    ("TL", _("Triple line: every line through this square scores triple.")),
    ("★", _("Start: the first move covers it, and it doubles that move's lines.")),
)


def how_to_play(*, bonus_squares: list[dict[str, str]]) -> dict[str, Any]:
    """The rules in the active language, plus this game's own bonus squares."""
    return {
        "language": get_language() or "en",
        "title": str(TITLE),
        "sections": [{"heading": str(h), "text": str(t)} for h, t in SECTIONS],
        "bonus_kinds": [{"kind": k, "text": str(t)} for k, t in BONUS_KINDS],
        "bonus_squares": bonus_squares,
    }

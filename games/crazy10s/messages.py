"""Player-facing messages for the engine's refusals, in the active language.

The engine is pure Python and answers in English with a stable ``code`` and structured
``details``. Translation happens here, at the service boundary: one message template per code,
filled from the details (square, line start/end and sum, bag size...). The English templates
repeat the engine's wording where the details allow it. A refusal without the details its
template needs gets the code's general message, still in the player's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.crazy10s.engine.errors import ERROR_CODES
from games.crazy10s.engine.scoring import TARGET_SUM
from games.crazy10s.engine.tiles import RACK_SIZE

# Each code: (message that uses the details, general message when the details are missing).
MESSAGES: dict[str, tuple[Any, Any]] = {
    "off_board": (_("%(square)s is off the board."), _("A tile lies off the board.")),
    "occupied": (
        _("%(square)s already holds a tile."),
        _("A square of this move already holds a tile."),
    ),
    "not_in_rack": (None, _("Your rack does not hold those tiles.")),
    "duplicate_square": (
        _("%(square)s is used twice in this move."),
        _("A square is used twice in this move."),
    ),
    "not_in_line": (None, _("All tiles of a move must lie in one row or in one column.")),
    "gap": (
        _("%(square)s is empty: the placed tiles must not leave a gap."),
        _("The placed tiles must not leave a gap."),
    ),
    "isolated_tile": (
        _("The tile on %(square)s forms no line."),
        _("Every placed tile must be part of a line of two or more tiles."),
    ),
    "not_connected": (None, _("The move must touch a tile already on the board.")),
    "first_move_centre": (None, _("The first move must cover the centre square (★).")),
    "first_move_too_short": (None, _("The first move must place at least two tiles.")),
    "bad_sum": (
        _("The line %(start)s-%(end)s adds up to %(sum)s, not %(target)s."),
        _("Every line with a placed tile must add up to exactly %(target)s."),
    ),
    "wild_value_required": (
        _("Choose the digit the wild on %(square)s stands for, e.g. %(square)s=*7."),
        _("Choose the digit each wild stands for, e.g. g7=*7."),
    ),
    "bag_too_small": (
        _("The bag holds only %(bag_size)s tiles: you cannot swap that many."),
        _("The bag does not hold enough tiles for this swap."),
    ),
    "game_over": (None, _("The game is over.")),
    "bad_notation": (
        None,
        _(
            "This move cannot be read. Write tiles as g7=3 (a wild as h7=*7), "
            "or use pass, swap 3 5 * or resign."
        ),
    ),
    "too_many_tiles": (None, _("At most %(rack_size)s tiles can be placed in one move.")),
    "not_a_player": (None, _("There is no such player in this game.")),
}

assert set(MESSAGES) == set(ERROR_CODES), set(ERROR_CODES) ^ set(MESSAGES)


def _fields(details: dict[str, Any]) -> dict[str, Any]:
    """The details flattened into template fields (a bad sum's line carries start/end/sum)."""
    fields: dict[str, Any] = {"target": TARGET_SUM, "rack_size": RACK_SIZE}
    line = details.get("line")
    if isinstance(line, dict):
        fields.update({k: line[k] for k in ("start", "end", "sum") if k in line})
    fields.update({k: v for k, v in details.items() if k != "line"})
    return fields


def message_for(code: str, details: dict[str, Any] | None = None) -> str:
    """The message for an engine refusal ``code`` in the active language."""
    specific, general = MESSAGES.get(code, (None, None))
    if general is None:
        return gettext("This move is not allowed.")
    fields = _fields(details or {})
    if specific is not None:
        try:
            return str(specific) % fields
        except (KeyError, TypeError, ValueError):
            pass  # details without the fields this template needs
    return str(general) % fields

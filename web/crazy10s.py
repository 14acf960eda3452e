"""The Crazy10s board as the templates draw it (also the Daily Puzzle's 11×11 board)."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from web.pages import register

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
SQUARE = re.compile(r"\b([a-z])(\d{1,2})=")

# The bonus labels are the game's own abbreviations in every language (the how-to-play text
# explains them); screen readers get the words.
BONUS_NAMES = {
    "DN": _("double number"),
    "TN": _("triple number"),
    "DL": _("double line"),
    "TL": _("triple line"),
    "★": _("start square"),
}
BONUS_CLASSES = {"DN": "dn", "TN": "tn", "DL": "dl", "TL": "tl", "★": "st"}


def squares_of(notation: str | None) -> set[str]:
    """The squares a placement's notation names (``g7=3 h7=*7`` -> {g7, h7})."""
    return {f"{c}{r}" for c, r in SQUARE.findall(notation or "")}


def board_rows(
    rows: list[str], bonus_squares: list[dict[str, str]], highlight: set[str] | None = None
) -> list[list[dict[str, Any]]]:
    """One dict per square: name, digit ('' when empty), bonus label and class, highlight."""
    bonus = {b["square"]: b["kind"] for b in bonus_squares}
    highlight = highlight or set()
    out = []
    for r, row in enumerate(rows, start=1):
        cells = []
        for c, char in enumerate(row):
            name = f"{COLUMNS[c]}{r}"
            kind = bonus.get(name, "")
            cells.append({
                "name": name,
                "digit": "" if char == "." else char,
                "bonus": kind,
                "cls": BONUS_CLASSES.get(kind, ""),
                "bonus_name": BONUS_NAMES.get(kind, ""),
                "last": name in highlight,
            })
        out.append(cells)
    return out


def last_placement(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    return history[-1] if history else None


@register("crazy10s")
def game_context(
    request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    position = view["position"]
    last = last_placement(history)
    highlight = squares_of(last["notation"]) if last and last["kind"] == "placement" else set()
    return {
        "rows": board_rows(position["board"], position["bonus_squares"], highlight),
        "columns": COLUMNS[: len(position["board"])],
        "rack": position["rack"],
        "last_move": last,
        "bonus_names": BONUS_NAMES,
        # a person (not the computer) keeps the game waiting: they can be nudged by email
        "nudge": view["status"] == "active" and any(
            p["seat"] == view["to_move"] and not p["is_computer"] and not p["is_you"]
            for p in view["players"]
        ),
    }

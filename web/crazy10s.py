"""The Crazy10s board as the templates draw it (also the Daily Puzzle's 11×11 board)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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


def board_html(rows: list[list[dict[str, Any]]], label: StrOrPromise) -> SafeString:
    """The board's buttons, built here rather than in a template loop: 169 cells through the
    template engine were most of the game page's server time. Every value is escaped."""
    cells = []
    for row in rows:
        for c in row:
            classes = " ".join(x for x in ("c", c["cls"], "last" if c["last"] else "") if x)
            if c["digit"]:
                cells.append(format_html(
                    '<button type="button" class="{}" data-sq="{}" data-d="{}" '
                    'aria-label="{}: {}">{}</button>',
                    classes, c["name"], c["digit"], c["name"], c["digit"], c["digit"]))
            else:
                name = f"{c['name']}, {c['bonus_name']}" if c["bonus"] else c["name"]
                cells.append(format_html(
                    '<button type="button" class="{}" data-sq="{}" aria-label="{}">'
                    "<small>{}</small></button>",
                    classes, c["name"], name, c["bonus"]))
    size = len(rows)
    # File letters above and rank numbers beside the board, as every text names squares
    # ("d7=4", "the line f6-f7"); hidden from screen readers, whose squares carry their names.
    files = format_html_join("", "<span>{}</span>", ((COLUMNS[c],) for c in range(size)))
    ranks = format_html_join("", "<span>{}</span>", ((r,) for r in range(1, size + 1)))
    return format_html(
        '<div class="board-scroll"><div class="board-frame" style="--n:{}">'
        '<div class="files" aria-hidden="true">{}</div>'
        '<div class="ranks" aria-hidden="true">{}</div>'
        '<div class="board" role="group" aria-label="{}" style="--n:{}">{}</div></div></div>',
        size, files, ranks, label, size, format_html_join("", "{}", ((cell,) for cell in cells)))


def last_placement(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    return history[-1] if history else None


def game_context(
    request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    position = view["position"]
    last = last_placement(history)
    highlight = squares_of(last["notation"]) if last and last["kind"] == "placement" else set()
    rows = board_rows(position["board"], position["bonus_squares"], highlight)
    return {
        "board": board_html(rows, _("Board")),
        "rack": position["rack"],
        "last_move": last,
        # a person (not the computer) keeps the game waiting: they can be nudged by email
        "nudge": view["status"] == "active" and any(
            p["seat"] == view["to_move"] and not p["is_computer"] and not p["is_you"]
            for p in view["players"]
        ),
    }

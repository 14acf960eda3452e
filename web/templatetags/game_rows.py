"""``{% game_rows games %}``: the rows of a games list, web/_game_row.html once per entry.

A row is the same HTML as long as its entry, the language and the time zone are the same,
and the home page's lists are drawn again on every event of the player's games (most rows
unchanged): each row's HTML is kept per process, keyed by all of that (issue 28: the rows were
two thirds of the home page's template time; Django's template engine walks ~25 nodes per
row). The row template sees its entry alone (``g``), never the page's context, so nothing else
can change its HTML; the key holds every value of the entry with its type (``1`` and ``True``,
a safe and a plain string, print differently). An entry with a value that cannot be a key is
rendered every time.

The key is the entry written by orjson (building it as nested tuples in Python took longer
than drawing the rest of the lists): JSON tells ``1``, ``1.0``, ``True`` and ``"1"`` apart,
and what JSON cannot tell apart goes through ``_typed``: a safe string, a lazy translation (its
text in the active language), a datetime, a date or a time, each with its type. A list and a
tuple make the same key (an entry's field is always the one or the other), and so do an Enum
and its value or a float NaN and None (an entry holds none of them).
"""

from __future__ import annotations

import datetime
import threading
from typing import Any

import orjson
from django import template
from django.template import Context
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

ROW_TEMPLATE = "web/_game_row.html"
MAX_KEPT = 4096  # rows of HTML kept per process (~1 KB each); all dropped when full
_kept: dict[tuple[Any, ...], str] = {}
_lock = threading.Lock()


@register.simple_tag(takes_context=True)
def game_rows(context: Context, entries: list[dict[str, Any]]) -> SafeString:
    assert context.template is not None
    row = context.template.engine.get_template(ROW_TEMPLATE)
    page = (get_language(), timezone.get_current_timezone_name(), context.autoescape,
            context.use_l10n, context.use_tz)
    parts = []
    for entry in entries:
        try:
            key: tuple[Any, ...] | None = (*page, _frozen(entry))
            html = _kept.get(key)  # type: ignore[arg-type]
        except TypeError:  # a value that cannot be a key (orjson.JSONEncodeError)
            key, html = None, None
        if html is None:
            html = row.render(Context(
                {"g": entry}, autoescape=context.autoescape, use_l10n=context.use_l10n,
                use_tz=context.use_tz,
            ))
            if key is not None:
                with _lock:
                    if len(_kept) >= MAX_KEPT:
                        _kept.clear()
                    _kept[key] = html
        parts.append(html)
    return mark_safe("".join(parts))


# Subclasses of str, int, dict and list (a safe string, a bool is not one) and dates go to
# ``_typed``; a dict key that is not a str, a set or any other object raises TypeError.
_KEY_OPTIONS = (
    orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
)
_TYPED = "\x00typed"  # no entry has this key: a typed value cannot pass for a plain dict


def _frozen(entry: dict[str, Any]) -> bytes:
    """``entry`` as a key: its JSON, every value with its type."""
    return orjson.dumps(entry, default=_typed, option=_KEY_OPTIONS)


def _typed(value: Any) -> dict[str, Any]:
    if isinstance(value, SafeString):
        return {_TYPED: ["safe", str.__str__(value)]}
    if isinstance(value, Promise):  # a lazy translation: its text in the active language
        return {_TYPED: ["lazy", str(value)]}
    if isinstance(value, datetime.datetime):
        return {_TYPED: ["datetime", value.isoformat(), str(value.tzinfo)]}
    if isinstance(value, datetime.date | datetime.time):
        return {_TYPED: [type(value).__name__, value.isoformat()]}
    raise TypeError(f"{type(value).__name__} is not a row value")

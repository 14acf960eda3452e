"""The API's parser: JSON only (a form or multipart body answers 415). A JSON body nested
deeper than any endpoint needs is refused as bad input, and every body comes marked as the
client's (``config.unknown_fields``: a serializer refuses the fields it does not take).

Python's ``json`` module recurses once per level, so a body like ``[[[[...]]]]`` a few thousand
levels deep raises ``RecursionError`` (a 500), and one just under the interpreter's limit would
make every serializer and renderer that walks it recurse as deep. No request of this API nests
more than a few levels, so anything past ``MAX_DEPTH`` is a ``parse_error`` (400).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from config.unknown_fields import mark_json

MAX_DEPTH = 32


def depth_of(value: Any) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0, ``[]`` is 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest  # deep enough to refuse: no need to walk the rest
        stack.extend((child, level) for child in children)
    return deepest


def too_deep() -> ParseError:
    return ParseError(
        _("JSON parse error - nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}
    )


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise too_deep() from None
        if depth_of(data) > MAX_DEPTH:
            raise too_deep()
        return mark_json(data)

"""How a game page is put together for each game kind (``GameKind.web``).

The page ``/games/<id>`` renders the kind's ``web.page`` template (the generic one shows the
players, scores, the move list and lets a person resign); its live part, re-rendered after every
move and event, is the kind's ``web.panel``, served alone at ``/games/<id>/panel``. The kind's
``web.context`` names a function ``(request, view, history) -> dict`` that adds its own
template context. Nothing here lists kinds: a new kind brings its templates and names them.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from django.http import HttpRequest
from django.template.loader import get_template
from django.utils.module_loading import import_string

from games import kinds


class ContextBuilder(Protocol):
    def __call__(
        self, request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
    ) -> dict[str, Any]: ...


@cache
def _builder(path: str) -> ContextBuilder:
    return import_string(path)


def kind_context(
    request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    path = kinds.get(view["kind"]).web.context
    return _builder(path)(request, view, history) if path else {}


def page_template(kind: str):
    return get_template(kinds.get(kind).web.page)


def panel_template(kind: str):
    return get_template(kinds.get(kind).web.panel)

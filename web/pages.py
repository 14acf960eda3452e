"""How a game page is put together for each game kind.

The page ``/games/<id>`` renders ``web/games/<kind>.html`` (else ``web/games/generic.html``);
its live part, re-rendered after every move and event, is ``web/games/<kind>_panel.html``
(else ``web/games/generic_panel.html``), served alone at ``/games/<id>/panel``. A kind adds
its own template context with ``@register("<kind>")`` on a function
``(request, view, history) -> dict`` in a module listed in ``KIND_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.template.loader import select_template

ContextBuilder = Callable[[HttpRequest, dict[str, Any], list[dict[str, Any]]], dict[str, Any]]

# Modules that register a kind's page context (imported once, on first use).
KIND_MODULES = ["web.crazy10s", "web.crazy_eights"]

_builders: dict[str, ContextBuilder] = {}
_loaded = False


def register(kind: str) -> Callable[[ContextBuilder], ContextBuilder]:
    def decorate(builder: ContextBuilder) -> ContextBuilder:
        _builders[kind] = builder
        return builder

    return decorate


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in KIND_MODULES:
            importlib.import_module(module)
        _loaded = True


def kind_context(
    request: HttpRequest, view: dict[str, Any], history: list[dict[str, Any]]
) -> dict[str, Any]:
    _load()
    builder = _builders.get(view["kind"])
    return builder(request, view, history) if builder else {}


def page_template(kind: str):
    return select_template([f"web/games/{kind}.html", "web/games/generic.html"])


def panel_template(kind: str):
    return select_template([f"web/games/{kind}_panel.html", "web/games/generic_panel.html"])

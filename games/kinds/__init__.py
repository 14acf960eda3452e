"""The registry of game kinds: generic code asks it for a kind, never imports one.

Kinds are listed by dotted path in ``settings.GAME_KINDS`` (the first is the default) and
loaded on first use, so the generic layers hold no import of any kind's package.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from games.kinds.base import GameKind

__all__ = ["GameKind", "all_kinds", "default", "get", "names"]


@cache
def _registry() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {}
    for path in settings.GAME_KINDS:
        kind = import_string(path)()
        if kind.name in kinds:
            raise ValueError(f"game kind {kind.name!r} is registered twice")
        kinds[kind.name] = kind
    return kinds


def get(name: str) -> GameKind:
    """The kind called ``name`` (KeyError if there is none)."""
    return _registry()[name]


def all_kinds() -> list[GameKind]:
    return list(_registry().values())


def names() -> list[str]:
    return list(_registry())


def default() -> GameKind:
    return all_kinds()[0]

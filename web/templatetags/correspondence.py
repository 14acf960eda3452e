"""Template tags of correspondence play: a turn time in words, the vacation state."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import ngettext

from games.correspondence import selectors as vacation_selectors
from games.correspondence import spectating

register = template.Library()


@register.filter
def turn_time(hours: int) -> str:
    """``72`` → "3 days", ``8`` → "8 hours": whole days read as days."""
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
    return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}


@register.simple_tag
def vacation_state(user: Any) -> dict[str, Any]:
    """The signed-in player's vacation days and running vacation (the settings page)."""
    return vacation_selectors.state(user)


@register.simple_tag
def watchable_games(viewer: Any, username: str) -> list[dict[str, Any]]:
    """The player's current games the viewer may watch (their profile)."""
    return spectating.watchable_games_of(viewer=viewer, username=username)


@register.simple_tag
def spectator_count(game_id: int) -> int:
    return spectating.spectator_count(game_id=game_id)


@register.simple_tag
def watch_settings(user: Any) -> bool:
    return spectating.public_games(user)

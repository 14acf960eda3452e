"""Template filters of correspondence play: a turn time in words."""

from __future__ import annotations

from django import template
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def turn_time(hours: int) -> str:
    """``72`` → "3 days", ``8`` → "8 hours": whole days read as days."""
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
    return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}

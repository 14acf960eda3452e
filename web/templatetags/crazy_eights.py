"""``{% crazy_eights_forms %}``: the Crazy Eights part of the new-game page (a solo match
against the regulars, a table with friends, joining a table by its code)."""

from __future__ import annotations

from typing import Any

from django import template

from web.views.crazy_eights import form_context

register = template.Library()


@register.inclusion_tag("web/games/crazy_eights_forms.html", takes_context=True)
def crazy_eights_forms(context) -> dict[str, Any]:
    shown = form_context(context.get("c8_errors"), context.get("c8_values"))
    return {**shown, "csrf_token": context.get("csrf_token"), "request": context.get("request")}

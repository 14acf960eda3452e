"""Tables with friends (``/tables/<code>``: code, share link, seats, the host's options; join,
leave and deal are sent by the page's script to the tables API, like every game action), for
every kind with tables."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.tables import services as tables
from games.tables.guessing import counting_misses
from web.views.common import SignedInRequest, page_errors


@login_required
@require_GET
def find_table(request: SignedInRequest) -> HttpResponse:
    """The "join with a code" form: the table's own page (a wrong code shows its 404 there)."""
    code = "".join(request.GET.get("code", "").split()).upper()
    if not code:
        return redirect(reverse("web:new-game") + "#find-table")
    return redirect("web:table", code=code)

def _table_context(request: HttpRequest, code: str) -> dict[str, Any]:
    with counting_misses(request):
        table = tables.get_table(code=code)
    shown = tables.show(table)
    username = request.user.get_username()
    mine = next((s for s in shown["seats"] if s["username"] == username), None)
    free = [s for s in shown["seats"] if s["name"] is None]
    active = shown["status"] == "dealt" and shown["game_status"] == "active"
    return {
        "table": shown,
        "me": mine,
        "is_host": shown["host"] == username,
        "free_seats": len(free),
        "match_on": active,
        # a seated player whose match is on goes straight to it (unless they left it)
        "go_to": (reverse("web:game", args=[shown["game_id"]])
                  if active and mine and not mine["left"] else ""),
        "poll_seconds": settings.WEB_POLL_SECONDS,
    }


@login_required
@require_GET
@page_errors
def table_page(request: SignedInRequest, code: str) -> HttpResponse:
    """The table lobby a share link opens (after sign-in or sign-up when signed out)."""
    context = _table_context(request, code)
    if context["go_to"]:
        return redirect(context["go_to"])
    return render(request, "web/tables/table.html", context)


@login_required
@require_GET
@page_errors
def table_panel(request: SignedInRequest, code: str) -> HttpResponse:
    """The lobby's live part alone (re-rendered when a table event arrives)."""
    return render(request, "web/tables/_table_panel.html", _table_context(request, code))

"""Crazy Eights pages: a solo match against computer regulars, and a table with friends
(``/tables/<code>``: code, share link, seats, the host's rules; join, leave and deal are sent
by the page's script to the tables API, like every game action)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.exceptions import ValidationError

from config.errors import ApiError
from games import kinds, services
from games.api.serializers import create_input_for
from games.tables import services as tables
from web.views.common import page_errors

KIND = "crazy_eights"
OPPONENT_FIELDS = ("opponent1", "opponent2", "opponent3")
RULES = ("actions", "several", "classic")


def form_context(errors: dict[str, list[str]] | None = None,
                 values: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the Crazy Eights forms of the new-game page need (levels, targets, values)."""
    kind = kinds.get(KIND)
    values = values or {"opponent1": "cautious", "opponent2": "aggressive", "opponent3": "",
                        "actions": True, "several": True, "classic": False, "target": ""}
    return {
        "c8_levels": kind.computer_levels(),
        "c8_targets": (100, 150, 200),
        "table_targets": (100, 200),
        "c8_errors": errors or {},
        "c8_values": values,
        "c8_seats": [
            {"name": name, "n": n, "value": values.get(name, ""), "optional": n > 1}
            for n, name in enumerate(OPPONENT_FIELDS, start=1)
        ],
    }


def _values(post) -> dict[str, Any]:
    values: dict[str, Any] = {name: post.get(name, "") for name in OPPONENT_FIELDS}
    values.update({rule: post.get(rule) == "on" for rule in RULES})
    values["target"] = post.get("target", "")
    return values


def _create_body(values: dict[str, Any]) -> dict[str, Any]:
    """The form as the API's ``POST /games`` body for Crazy Eights."""
    target = values["target"]
    rules: dict[str, Any] = {rule: values[rule] for rule in RULES}
    rules["target"] = int(target) if str(target).isdigit() else None
    return {
        "kind": KIND,
        "opponents": [values[f] for f in OPPONENT_FIELDS if values[f]],
        "rules": rules,
    }


def _messages(detail: Any) -> list[str]:
    """Every message of a (nested) DRF error detail: the form shows them above its fields."""
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _messages(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _messages(value)]
    return [str(detail)]


@login_required
@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    """A solo match against one to three computer regulars (the API's ``POST /games``)."""
    if request.method == "GET":
        return redirect(reverse("web:new-game") + "#new-crazy-eights")
    values = _values(request.POST)
    body = _create_body(values)
    data = create_input_for(body)(data=body)
    try:
        data.is_valid(raise_exception=True)
        receipt = services.create_game_request(user=request.user, creation=data.creation())
    except ValidationError as exc:
        errors = {"general": _messages(exc.detail)}
    except ApiError as exc:
        errors = {"general": [exc.message]}
    else:
        return redirect("web:game", game_id=receipt.body["id"])
    context = form_context(errors, values)
    return render(request, "web/games/crazy_eights_new.html", context, status=400)


@login_required
@require_GET
def find_table(request: HttpRequest) -> HttpResponse:
    """The "join with a code" form: the table's own page (a wrong code shows its 404 there)."""
    code = "".join(request.GET.get("code", "").split()).upper()
    if not code:
        return redirect(reverse("web:new-game") + "#tables")
    return redirect("web:table", code=code)


def _table_context(request: HttpRequest, code: str) -> dict[str, Any]:
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
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    """The table lobby a share link opens (after sign-in or sign-up when signed out)."""
    context = _table_context(request, code)
    if context["go_to"]:
        return redirect(context["go_to"])
    return render(request, "web/tables/table.html", context)


@login_required
@require_GET
@page_errors
def table_panel(request: HttpRequest, code: str) -> HttpResponse:
    """The lobby's live part alone (re-rendered when a table event arrives)."""
    return render(request, "web/tables/_table_panel.html", _table_context(request, code))

"""Helpers shared by the web client's views."""

from __future__ import annotations

from functools import wraps
from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.api.throttles import AddressThrottle, LoginThrottle
from accounts.models import User
from config.errors import ApiError
from games import kinds

_ANY_ID = 987654321  # a game id, to find where the id goes in the game page's address


def game_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """List entries (``selectors.game_summary``) as web/_game_row.html shows them: the kind's
    title (none for the default kind), and the game page's address, built from one
    ``reverse()`` per list rather than one ``{% url %}`` per row (issue 28)."""
    prefix, _, suffix = reverse("web:game", args=[_ANY_ID]).partition(str(_ANY_ID))
    default = kinds.default().name
    for row in rows:
        row["title"] = None if row["kind"] == default else kinds.get(row["kind"]).title
        row["url"] = f"{prefix}{row['id']}{suffix}"
    return rows


class SignedInRequest(HttpRequest):
    """The request of a view behind ``login_required``, for the type checker: its user is
    signed in (a ``User``, never ``AnonymousUser``). Never instantiated."""

    user: User


def safe_next(request: HttpRequest, default: str = "/") -> str:
    """The ``next`` page a form or link asked for, if it is on this site (no open redirect)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def throttled(request: HttpRequest, scope: str) -> bool:
    """The API's atomic throttles for sign-in (per address and per account) and sign-up (per
    address), so the web forms cannot be used to get around them."""
    throttle = LoginThrottle() if scope == "login" else AddressThrottle()
    shim = SimpleNamespace(META=request.META, data=request.POST)
    return not throttle.allow_request(shim, SimpleNamespace(throttle_scope=scope))


def field_errors(detail: Any) -> dict[str, list[str]]:
    """A DRF ``ValidationError.detail`` (or an ApiError's details) as {field: [messages]}."""
    if isinstance(detail, dict):
        return {
            key: [str(m) for m in (value if isinstance(value, list) else [value])]
            for key, value in detail.items()
        }
    if isinstance(detail, list):
        return {"general": [str(m) for m in detail]}
    return {"general": [str(detail)]}


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the page's icon link says: the icon."""
    return redirect(static("web/favicon.svg"), permanent=True)


def page_errors(view):
    """A service's refusal (no such game, not your game, no puzzle that day) as a page with the
    same status and the translated message, instead of a server error."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ApiError as exc:
            context = {"message": exc.message, "code": exc.code}
            response = render(request, "web/error.html", context, status=exc.status)
            wait = exc.details.get("retry_after")
            if exc.status in (429, 503) and isinstance(wait, int):
                response["Retry-After"] = str(wait)
            return response

    return wrapped

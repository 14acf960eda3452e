"""Friends and profiles (issue 15). Reads go through social.selectors; every change is made by
the page's script through the JSON API (web/static/web/social.js)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import kinds
from social import selectors
from web.views.common import SignedInRequest, page_errors


@login_required
@require_GET
def friends_page(request: SignedInRequest) -> HttpResponse:
    context = selectors.friends_page(user=request.user)
    return render(request, "web/friends.html", context)


def _title(kind: str) -> str:
    """The game's name in the reader's language (a kind no longer registered: its name)."""
    return str(kinds.get(kind).title) if kind in kinds.names() else kind


def _titled(rows: dict) -> list[dict]:
    return [{"title": _title(kind), **row} for kind, row in rows.items()]


@login_required
@require_GET
@page_errors
def player_page(request: SignedInRequest, username: str) -> HttpResponse:
    profile = selectors.profile(viewer=request.user, username=username)
    for rating in profile["ratings"]:
        rating["title"] = _title(rating["kind"])
    context = {
        "profile": profile,
        "games": _titled(profile["games"]),
        "statistics": _titled(profile.get("statistics", {})),
        "own": profile["username"] == request.user.username,
        "relation": selectors.relation(user=request.user, other_username=username),
    }
    return render(request, "web/player.html", context)

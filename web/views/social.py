"""Friends and profiles (issue 15). Reads go through social.selectors; every change is made by
the page's script through the JSON API (web/static/web/social.js)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from social import selectors
from web.views.common import page_errors


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    context = selectors.friends_page(user=request.user)
    return render(request, "web/friends.html", context)


@login_required
@require_GET
@page_errors
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    profile = selectors.profile(viewer=request.user, username=username)
    context = {
        "profile": profile,
        "own": profile["username"] == request.user.username,
        "relation": selectors.relation(user=request.user, other_username=username),
    }
    return render(request, "web/player.html", context)

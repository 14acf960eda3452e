"""Watching a game (its own page: the spectator's view, refreshed by polling the API) and the
"public games" choice on the settings page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import kinds
from games.correspondence import spectating
from web.views.common import SignedInRequest, page_errors


@login_required
@require_GET
@page_errors
def watch(request: SignedInRequest, game_id: int) -> HttpResponse:
    game = spectating.game_to_watch(game_id=game_id, viewer=request.user)
    spectating.note_watching(game=game, user=request.user)
    view = {**spectating.spectator_view(game), "moves": spectating.spectator_history(game)}
    context = {
        "view": view,
        "title": kinds.get(game.kind).title,
        "poll_seconds": settings.WEB_POLL_SECONDS,
    }
    return render(request, "web/watch.html", context)


@login_required
@require_POST
def public_games(request: SignedInRequest) -> HttpResponse:
    public = request.POST.get("public_games") == "on"
    spectating.set_public_games(user=request.user, public=public)
    messages.success(request, _("Saved."))
    return redirect("/settings#watching")

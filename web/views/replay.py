"""The replay viewer: a finished game step by step (web/static/web/replay.js draws it)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import selectors
from games.correspondence import exports, records
from web.views.common import SignedInRequest, page_errors


@login_required
@require_GET
@page_errors
def replay(request: SignedInRequest, game_id: int) -> HttpResponse:
    """Open to the game's players once it is over by play (the full record: every rack or
    hand); before that, or for an aborted or awarded game, the page says so."""
    game = exports.game_of_player(game_id=game_id, user=request.user)
    seat = selectors.seat_of(game, request.user)
    assert seat is not None
    if not selectors.analysis_public(game):
        return render(request, "web/replay.html", {"game_id": game.pk, "record": None},
                      status=409)
    record = records.build(game, positions_for=seat.index)
    return render(request, "web/replay.html", {"game_id": game.pk, "record": record})

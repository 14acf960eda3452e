"""Your games, a new game, and a game's page (any kind: see web/pages.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.exceptions import ValidationError

from config.errors import ApiError
from games import kinds, selectors, services
from social import selectors as social_selectors
from web import new_game as forms
from web import pages
from web.views.common import SignedInRequest, page_errors

FINISHED_SHOWN = 20


def _summaries(user, status: str, limit: int | None = None) -> list[dict[str, Any]]:
    games = selectors.player_games(user=user, status=status)
    if limit is not None:
        games = games[:limit]
    rows = [selectors.game_summary(game=g, user=user) for g in games]
    for row in rows:  # the default kind's games need no name on the list
        row["title"] = None if row["kind"] == kinds.default().name else kinds.get(row["kind"]).title
    return rows


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Signed in: your games (your turn first, then by deadline; waiting; finished).
    Signed out: what this is, and the way in."""
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html")
    context = {
        "active": _summaries(request.user, "active"),
        "waiting": _summaries(request.user, "waiting"),
        "finished": _summaries(request.user, "finished", FINISHED_SHOWN),
    }
    return render(request, "web/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: SignedInRequest) -> HttpResponse:
    """Every kind's form (web/new_game.py); a posted one starts that kind's game."""
    posted, values, errors = None, None, None
    if request.method == "POST":
        name = request.POST.get("kind", "")
        kind = kinds.get(name) if name in kinds.names() else kinds.default()
        posted, values = kind.name, request.POST.dict()
        try:
            receipt = services.create_game_request(
                user=request.user, creation=forms.validated(kind, request.POST)
            )
        except ValidationError as exc:
            errors = _flatten(exc.detail)
        except ApiError as exc:
            errors = [exc.message]
        else:
            return redirect("web:game", game_id=receipt.body["id"])
    context = {
        "forms": forms.forms(posted, values, errors),
        "turn_hours": forms.TURN_HOURS,
        "friend": forms.FRIEND,
        "random": forms.RANDOM,
        "has_tables": any(k.table is not None for k in kinds.all_kinds()),
    }
    return render(request, "web/new_game.html", context, status=400 if errors else 200)


def _flatten(detail: Any) -> list[str]:
    """Every message of a (nested) DRF error detail: the form shows them above its fields."""
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _flatten(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _flatten(value)]
    return [str(detail)]


def _game_context(request: SignedInRequest, game_id: int) -> dict[str, Any]:
    game, seat = selectors.game_for_player(game_id=game_id, user=request.user)
    services.note_seen(seat=seat)  # the player is looking: no email about this game
    view = selectors.player_view(game=game, seat_index=seat.index, with_coach=True)
    history = selectors.move_history(game=game, seat_index=seat.index)
    kind = kinds.get(game.kind)
    for entry in history:
        entry["description"] = kind.describe_move(
            kind=entry["kind"], notation=entry["notation"], is_timeout=entry["is_timeout"],
            mine=entry["mine"],
        )
    context = {
        "game": view,
        "title": kind.title,
        "history": history,
        "your_turn": view["your_turn"],
        "poll_seconds": settings.WEB_POLL_SECONDS,
        "howto": selectors.how_to_play(game=game),
        "panel_template_name": kind.web.panel,
        "rematch": social_selectors.rematch_state(game=view, user=request.user),
    }
    context.update(pages.kind_context(request, view, history))
    return context


@login_required
@require_GET
@page_errors
def game_page(request: SignedInRequest, game_id: int) -> HttpResponse:
    context = _game_context(request, game_id)
    return HttpResponse(pages.page_template(context["game"]["kind"]).render(context, request))


@login_required
@require_GET
@page_errors
def game_panel(request: SignedInRequest, game_id: int) -> HttpResponse:
    """The live part of the game page alone (htmx swaps it in after a move or an event)."""
    context = _game_context(request, game_id)
    return HttpResponse(pages.panel_template(context["game"]["kind"]).render(context, request))

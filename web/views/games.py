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
from games.api.serializers import CreateGameInputSerializer
from social import selectors as social_selectors
from web import pages
from web.views.common import field_errors, page_errors

FINISHED_SHOWN = 20


def _summaries(user, status: str, limit: int | None = None) -> list[dict[str, Any]]:
    games = selectors.player_games(user=user, status=status)
    if limit is not None:
        games = games[:limit]
    return [selectors.game_summary(game=g, user=user) for g in games]


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


def _create_options(post) -> dict[str, Any]:
    """The form's fields as the API's body (JSON types: turn_hours is a number)."""
    who = post.get("opponent", "ai")
    opponent: dict[str, Any]
    if who == "username":
        opponent = {"username": post.get("username", "").strip()}
    elif who == "random":
        opponent = {"random": True}
    else:
        opponent = {"ai": post.get("level", "")}
    hours = post.get("turn_hours", "72")
    return {
        "kind": "crazy10s",
        "opponent": opponent,
        "turn_hours": int(hours) if hours.isdigit() else hours,
        "layout": post.get("layout", "classic"),
        "rated": post.get("rated") == "on",
    }


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    values = {"opponent": "ai", "level": "beginner", "username": "", "turn_hours": "72",
              "layout": "classic", "rated": "on"}
    if request.method == "POST":
        values = {k: request.POST.get(k, v) for k, v in values.items()}
        values["rated"] = request.POST.get("rated", "")
        data = CreateGameInputSerializer(data=_create_options(request.POST))
        try:
            data.is_valid(raise_exception=True)
            receipt = services.create_game_request(
                user=request.user, creation=data.creation()
            )
        except ValidationError as exc:
            errors = field_errors(exc.detail)
        except ApiError as exc:
            errors = {"general": [exc.message]}
        else:
            return redirect("web:game", game_id=receipt.body["id"])
    fields = CreateGameInputSerializer().fields
    context = {
        "errors": errors,
        "values": values,
        "levels": kinds.default().computer_levels(),
        "turn_hours": fields["turn_hours"].choices,
        "layouts": fields["layout"].choices,
    }
    return render(request, "web/new_game.html", context, status=400 if errors else 200)


def _game_context(request: HttpRequest, game_id: int) -> dict[str, Any]:
    game, seat = selectors.game_for_player(game_id=game_id, user=request.user)
    services.note_seen(seat=seat)  # the player is looking: no email about this game
    view = selectors.player_view(game=game, seat_index=seat.index, with_coach=True)
    history = selectors.move_history(game=game, seat_index=seat.index)
    context = {
        "game": view,
        "history": history,
        "your_turn": view["to_move"] == view["your_seat"],
        "poll_seconds": settings.WEB_POLL_SECONDS,
        "howto": kinds.get(game.kind).how_to_play(game.state),
        "rematch": social_selectors.rematch_state(game=view, user=request.user),
    }
    context.update(pages.kind_context(request, view, history))
    return context


@login_required
@require_GET
@page_errors
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    context = _game_context(request, game_id)
    return HttpResponse(pages.page_template(context["game"]["kind"]).render(context, request))


@login_required
@require_GET
@page_errors
def game_panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live part of the game page alone (htmx swaps it in after a move or an event)."""
    context = _game_context(request, game_id)
    return HttpResponse(pages.panel_template(context["game"]["kind"]).render(context, request))
